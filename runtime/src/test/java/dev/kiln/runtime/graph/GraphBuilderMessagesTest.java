package dev.kiln.runtime.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ConcatOp;
import dev.kiln.ops.DropoutOp;
import dev.kiln.ops.FlattenOp;
import dev.kiln.ops.RecurrentOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.emit.NodeSource;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The graph builder driven by hand with arguments the processor would never pass: each error names
 * the model and the node, what was expected and what was given (never a bare MXNet argument such as
 * "Parameter p").
 */
class GraphBuilderMessagesTest {
  private static NodeSource src(String node, String annotation) {
    return new NodeSource(node, "Hand." + node + "()", annotation);
  }

  /** Builds input x of {@code in}, then {@code layer} over it, in model Hand. */
  private static void build(
      Shape in, boolean classifier, BiFunction<GraphBuilder, Sym, Sym> layer) {
    try (GraphBuilder b = new GraphBuilder("Hand", classifier)) {
      Sym x = b.input(src("x", "@Input"), in);
      b.build(List.of(layer.apply(b, x))).close();
    }
  }

  private static void build(Shape in, BiFunction<GraphBuilder, Sym, Sym> layer) {
    build(in, false, layer);
  }

  @Test
  void aDropoutRateOutsideZeroToOneIsRefusedOnTheCall() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                build(
                    Shape.of(-1, 4),
                    (b, x) -> b.node(src("d", "@Dropout(rate = 1.5)"), DropoutOp.rate(1.5), x)));
    assertEquals(
        "[kiln:RateOutOfRange] Hand.d() @Dropout(rate = 1.5): rate must be in [0, 1) (the "
            + "probability of dropping a value in training), got 1.5",
        e.getMessage());
  }

  @Test
  void aSoftmaxAxisOutOfRangeIsRefusedWhenTheGraphIsBuilt() {
    ModelException e =
        assertThrows(
            ModelException.class,
            () ->
                build(
                    Shape.of(-1, 4),
                    (b, x) -> b.node(src("s", "@Softmax(axis = 5)"), SoftmaxOp.axis(5), x)));
    assertEquals(
        "Hand.s() @Softmax(axis = 5): softmax axis 5 is out of range for its input of "
            + "rank 2 (allowed: -2 to 1)",
        e.getMessage());
    assertEquals("s", e.source().node());
  }

  @Test
  void aConcatAxisOutOfRangeIsRefusedBeforeMxnetSeesIt() {
    ModelException e =
        assertThrows(
            ModelException.class,
            () ->
                build(
                    Shape.of(-1, 4),
                    (b, x) -> b.node(src("c", "@Concat(axis = 4)"), ConcatOp.axis(4), x, x)));
    assertEquals(
        "Hand.c() @Concat(axis = 4): concat axis 4 is out of range for its inputs of "
            + "rank 2 (allowed: -2 to 1)",
        e.getMessage());
  }

  @Test
  void aClassifierHeadOverAnotherAxisThanTheLastIsRefused() {
    ModelException e =
        assertThrows(
            ModelException.class,
            () ->
                build(
                    Shape.of(-1, 4),
                    true,
                    (b, x) ->
                        b.node(
                            src("p", "@Softmax(axis = 0)"),
                            SoftmaxOp.axis(0).classifierHead(),
                            x)));
    assertEquals(
        "Hand.p() @Softmax(axis = 0): classifier training replaces this softmax with "
            + "MXNet's SoftmaxOutput, which is over the last axis (1 of its input of rank 2), but "
            + "this softmax is over axis 0",
        e.getMessage());
  }

  @Test
  void aCustomParameterOfIncompleteShapeIsRefusedOnTheCall() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                build(
                    Shape.of(-1, 4),
                    (b, x) -> b.customParam(src("c", "@Scale"), "factor", Shape.of(-1, 4), true)));
    assertEquals(
        "Hand.c() @Scale: custom parameter c_factor needs a complete shape (each "
            + "dimension a size: it is allocated once, for every batch), got [BATCH, 4]",
        e.getMessage());
  }

  @Test
  void anOperandFromOutsideTheForwardPassNamesTheLayerAndTheOperation() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                build(
                    Shape.of(-1, 4),
                    (b, x) ->
                        b.custom(
                            src("c", "@Scale"),
                            "Scale",
                            Shape.of(-1, 4),
                            Shape.of(-1, 4),
                            x,
                            List.of(),
                            (in, params) -> in.mul(x))));
    assertEquals(
        "Hand.c() @Scale: in layer Scale, mul reads x, which is not a value of this "
            + "forward pass; a body computes from its input and its parameters only",
        e.getMessage());
  }

  /**
   * {@code [c]} made from parameter p, against {@code [BATCH, c, h, w]} with {@code c == w}: a
   * value computed from a parameter lines up by coincidence as the parameter would; one whose names
   * the other operand does not have gets the general fix.
   */
  @Test
  void aComputedOperandThatBroadcastsOnlyByCoincidenceIsRefusedWithItsShape() {
    ModelException e =
        assertThrows(
            ModelException.class,
            () ->
                build(
                    Shape.of(-1, 2, 5, 2),
                    (b, x) -> {
                      NodeSource c = src("c", "@Gate");
                      Sym p =
                          b.customParam(
                              c,
                              "p",
                              Shape.of(2),
                              List.of("c"),
                              dev.kiln.annotations.ParamInit.ONES);
                      return b.custom(
                          c,
                          "Gate",
                          List.of("n", "c", "h", "w"),
                          Shape.of(-1, 2, 5, 2),
                          Shape.of(-1, 2, 5, 2),
                          x,
                          List.of(p),
                          (in, params) -> in.add(params.get(0).exp()));
                    }));
    assertEquals(
        "Hand.c() @Gate: in layer Gate, add of [BATCH, 2, 5, 2] and [2] lines up axis c of c_exp0 "
            + "with axis 3 (w) of x only because both are 2: MXNet lines up the last axes of "
            + "operands of different rank, so broadcasting in a custom layer needs equal rank (a "
            + "leading BATCH aside); give c_exp0 the shape [2, 1, 1], which lines c up with axis 1 "
            + "of x\n"
            + "  shapes through the body of Gate, from input x [BATCH, 2, 5, 2] and parameter c_p "
            + "[2] (its @Param shape):\n"
            + "    c_exp0 = exp(c_p [2]) -> [2]\n"
            + "    add(x [BATCH, 2, 5, 2], c_exp0 [2]) lines up c with w",
        e.getMessage());
    ModelException elsewhere =
        assertThrows(
            ModelException.class,
            () ->
                build(
                    Shape.of(-1, 3, 2),
                    (b, x) -> {
                      NodeSource c = src("c", "@Gate");
                      Sym p =
                          b.customParam(
                              c,
                              "p",
                              Shape.of(2),
                              List.of("k"),
                              dev.kiln.annotations.ParamInit.ONES);
                      return b.custom(
                          c,
                          "Gate",
                          List.of("n", "t", "f"),
                          Shape.of(-1, 3, 2),
                          Shape.of(-1, 3, 2),
                          x,
                          List.of(p),
                          (in, params) -> in.mul(params.get(0)));
                    }));
    assertEquals(
        "Hand.c() @Gate: in layer Gate, mul of [BATCH, 3, 2] and [2] lines up axis k of c_p with "
            + "axis 2 (f) of x only because both are 2: MXNet lines up the last axes of operands of "
            + "different rank, so broadcasting in a custom layer needs equal rank (a leading BATCH "
            + "aside); give c_p one axis per axis of [BATCH, 3, 2] after its leading BATCH, 1 where "
            + "it does not vary",
        elsewhere.getMessage().lines().findFirst().orElseThrow());
  }

  /**
   * Axes that broadcast in six alternating runs: MXNet 1.9.1's kernels take five ("Too many
   * broadcast dimensions" when the executor runs); the rule's one home (kiln-names' Broadcast)
   * refuses it when the graph is built.
   */
  @Test
  void aCustomOperationThatBroadcastsInMoreRunsThanMxnetTakesIsRefused() {
    ModelException e =
        assertThrows(
            ModelException.class,
            () ->
                build(
                    Shape.of(-1, 2, 3, 2, 3, 2, 3),
                    (b, x) -> {
                      NodeSource c = src("c", "@Gate");
                      Sym p =
                          b.customParam(
                              c,
                              "p",
                              Shape.of(1, 3, 1, 3, 1, 3),
                              List.of("o1", "b", "o2", "d", "o3", "f"),
                              dev.kiln.annotations.ParamInit.ONES);
                      return b.custom(
                          c,
                          "Gate",
                          List.of("n", "a", "b", "c", "d", "e", "f"),
                          Shape.of(-1, 2, 3, 2, 3, 2, 3),
                          Shape.of(-1, 2, 3, 2, 3, 2, 3),
                          x,
                          List.of(p),
                          (in, params) -> in.mul(params.get(0)));
                    }));
    assertEquals(
        "Hand.c() @Gate: in layer Gate, mul of [BATCH, 2, 3, 2, 3, 2, 3] and [1, 3, 1, 3, 1, 3] "
            + "does not fit: the axes broadcast in 6 runs, and MXNet's broadcast kernels take at "
            + "most 5",
        e.getMessage().lines().findFirst().orElseThrow());
  }

  /**
   * A parameter the body never reads reached MXNet, whose shape inference said only "argument name
   * c_unused not found".
   */
  @Test
  void aParameterTheBodyNeverReadsIsRefusedWithItsName() {
    ModelException e =
        assertThrows(
            ModelException.class,
            () ->
                build(
                    Shape.of(-1, 4),
                    (b, x) -> {
                      NodeSource c = src("c", "@Scale");
                      Sym used =
                          b.customParam(c, "scale", Shape.of(4), List.of("in"), ParamInit.ONES);
                      Sym unused =
                          b.customParam(c, "unused", Shape.of(4), List.of("in"), ParamInit.ONES);
                      return b.custom(
                          c,
                          "Scale",
                          List.of("n", "in"),
                          Shape.of(-1, 4),
                          Shape.of(-1, 4),
                          x,
                          List.of(used, unused),
                          (in, params) -> in.mul(params.get(0)));
                    }));
    assertEquals(
        "Hand.c() @Scale: layer Scale declares parameter c_unused, but its forward pass never "
            + "reads it (MXNet cannot give a parameter that nothing reads a shape or a gradient): "
            + "compute with it, or remove its @Param",
        e.getMessage().lines().findFirst().orElseThrow());
  }

  /**
   * A custom layer's reshape that changes the number of values: the {@code @Reshape} unit's rule
   * (the processor's compile-time trace uses it too) refuses it when the graph is built, for a body
   * the compiler could not trace.
   */
  @Test
  void aReshapeToAnotherNumberOfValuesIsRefusedWithBothShapes() {
    ModelException e =
        assertThrows(
            ModelException.class,
            () ->
                build(
                    Shape.of(-1, 784),
                    (b, x) ->
                        b.custom(
                            src("rows", "@Regroup"),
                            "Regroup",
                            List.of("n", "in"),
                            Shape.of(-1, 784),
                            Shape.of(-1, 28, 28),
                            x,
                            List.of(),
                            (in, params) -> in.reshape(-1, 28, 27))));
    assertEquals(
        "Hand.rows() @Regroup: in layer Regroup, reshape of [BATCH, 784] to [BATCH, 28, 27] does "
            + "not fit: cannot reshape to {BATCH, 28, 27}: the input has 784 × BATCH values, which "
            + "the other dimensions (756 values) do not divide for every batch size (input [BATCH, "
            + "784] from x (in the body of Regroup))",
        e.getMessage().lines().findFirst().orElseThrow());
  }

  /** A reshape that keeps the number of values builds, its result of the inferred shape. */
  @Test
  void aReshapeThatKeepsTheValuesBuilds() {
    build(
        Shape.of(-1, 784),
        (b, x) ->
            b.custom(
                src("rows", "@Regroup"),
                "Regroup",
                List.of("n", "in"),
                Shape.of(-1, 784),
                Shape.of(-1, 28, 28),
                x,
                List.of(),
                (in, params) -> in.reshape(-1, 28, 28).exp()));
  }

  @Test
  void aSymOperationOutsideAForwardPassNamesTheNode() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> build(Shape.of(-1, 4), (b, x) -> x.exp()));
    assertEquals(
        "Hand.x() @Input: exp works only inside a custom @Layer's forward pass, but "
            + "x is the output of this built-in node",
        e.getMessage());
  }

  @Test
  void aBuilderBuildsOneGraph() {
    try (GraphBuilder b = new GraphBuilder("Hand")) {
      Sym x = b.input(src("x", "@Input"), Shape.of(-1, 4));
      Sym y = b.node(src("y", "@Flatten"), FlattenOp.of(), x);
      b.build(List.of(y)).close();
      IllegalStateException twice =
          assertThrows(IllegalStateException.class, () -> b.build(List.of(y)));
      assertEquals(
          "Hand: this GraphBuilder has built its graph already; a builder builds one "
              + "graph, so make a new one",
          twice.getMessage());
      IllegalStateException after =
          assertThrows(
              IllegalStateException.class, () -> b.node(src("z", "@Flatten"), FlattenOp.of(), x));
      assertEquals(
          "Hand: this GraphBuilder has built its graph already; a builder builds one "
              + "graph, so make a new one",
          after.getMessage());
    }
  }

  @Test
  void aRecurrentLayerOfNoUnitsNamesTheNode() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                build(
                    Shape.of(-1, 5, 4),
                    (b, x) ->
                        b.node(
                            src("r", "@Lstm(units = 0)"), RecurrentOp.lstm(0).over(-1, 5, 4), x)));
    assertEquals(
        "[kiln:NonPositive] Hand.r() @Lstm(units = 0): units must be positive, got 0",
        e.getMessage());
  }
}
