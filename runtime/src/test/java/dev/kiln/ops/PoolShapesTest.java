package dev.kiln.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.PoolConvention;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The compile-time shape rule of window pooling ({@link PoolOp}) against MXNet 1.9.1 itself: for a
 * table of sizes, kernels, strides and paddings drawn at random, over rank-3 and rank-4 inputs and
 * under both conventions, the layer is built and run on MXNet, and the output shape it makes must
 * be the one the processor inferred; where the processor refuses a layer, MXNet must refuse it too,
 * except for the full convention's windows that start past the input ({@code EmptyWindow}), which
 * MXNet makes (and fills with its lowest float or 0): there MXNet's shape must be the formula's.
 */
class PoolShapesTest {
  private static final int CASES = 60;

  /** One layer over one input, as the processor sees it and as the runtime builds it. */
  private record Case(Op op, LayerOp spec, int[] input) {
    @Override
    public String toString() {
      return op + " over " + Arrays.toString(input);
    }
  }

  /** The processor's output shape, or the id of the rule it reports. */
  private static String processor(Case c) {
    try {
      c.op().checkAttributes(new AttributeSite("layer", "T.layer()", "@" + c.op().annotation()));
      int[] dims = c.input().clone();
      dims[0] = TShape.BATCH;
      Inferred out =
          c.op()
              .infer(
                  new ShapeSite(
                      "T.layer()",
                      "layer",
                      "@L",
                      List.of(new Source(TShape.of(dims), "x", "@Input"))));
      return out.shape().toString();
    } catch (RuleError e) {
      return "refused: " + e.message.id();
    }
  }

  /** MXNet's output shape for a batch of 1, written as the processor writes shapes. */
  private static String mxnet(Case c) {
    GraphBuilder b = new GraphBuilder("T");
    int[] batch = c.input().clone();
    batch[0] = -1;
    try {
      Sym x = b.input(new NodeSource("x", "T.x()", "@Input"), Shape.of(batch));
      Sym y = b.node(new NodeSource("layer", "T.layer()", "@L"), c.spec(), x);
      try (Graph g = b.build(List.of(y));
          ModelRuntime m = new ModelRuntime("T", g, Init.xavier(), 0);
          NDManager nd = NDManager.newBaseManager()) {
        long[] shape =
            m.forward(
                    nd.zeros(
                        new ai.djl.ndarray.types.Shape(
                            Arrays.stream(c.input()).asLongStream().toArray())))[0]
                .getShape()
                .getShape();
        int[] dims = Arrays.stream(shape).mapToInt(v -> (int) v).toArray();
        dims[0] = TShape.BATCH;
        return TShape.of(dims).toString();
      }
    } catch (RuntimeException e) {
      return "refused: " + e.getMessage();
    }
  }

  /**
   * MXNet's {@code PoolingShape} written out for a case Kiln refuses as an empty window: {@code 1 +
   * ceil((x + 2p - k) / s)} per spatial dimension, as MXNet computes it in float.
   */
  private static String fullFormula(int[] input, int k, int s, int p) {
    int[] dims = input.clone();
    dims[0] = TShape.BATCH;
    for (int i = 2; i < dims.length; i++) {
      dims[i] = 1 + (int) Math.ceil((float) (input[i] + 2 * p - k) / s);
    }
    return TShape.of(dims).toString();
  }

  private static void agree(List<Case> cases) {
    int accepted = 0;
    int refused = 0;
    List<String> disagreements = new ArrayList<>();
    for (Case c : cases) {
      String expected = processor(c);
      String actual = mxnet(c);
      boolean kilnRefuses = expected.startsWith("refused");
      boolean mxnetRefuses = actual.startsWith("refused");
      if (expected.equals("refused: EmptyWindow")) {
        PoolOp op = (PoolOp) c.op();
        String formula =
            fullFormula(c.input(), op.kernel().get(0), op.stride().get(0), op.pad().get(0));
        if (!actual.equals(formula)) {
          disagreements.add(c + ": MXNet " + actual + ", the formula " + formula);
        }
      } else if (kilnRefuses ? !mxnetRefuses : !expected.equals(actual)) {
        disagreements.add(c + ": Kiln " + expected + ", MXNet " + actual);
      }
      if (kilnRefuses) {
        refused++;
      } else {
        accepted++;
      }
    }
    assertEquals(List.of(), disagreements);
    // The table must exercise both sides of the rules, or it proves little.
    assertTrue(accepted >= cases.size() / 2, "accepted " + accepted);
    assertTrue(refused >= 1, "refused " + refused);
  }

  @Test
  void poolingSizesAreMxnetsInOneAndTwoDimensions() {
    agree(table(new Random(31), PoolConvention.VALID));
  }

  @Test
  void theFullConventionsSizesAreMxnetsInOneAndTwoDimensions() {
    List<Case> cases = table(new Random(32), PoolConvention.FULL);
    agree(cases);
    long empty = cases.stream().filter(c -> processor(c).equals("refused: EmptyWindow")).count();
    long ceil =
        cases.stream()
            .filter(c -> !processor(c).startsWith("refused"))
            .filter(c -> !processor(c).equals(processor(valid(c))))
            .count();
    assertTrue(empty >= 1, "no case starts a window past the input");
    assertTrue(ceil >= CASES / 10, "only " + ceil + " cases where full and valid differ");
  }

  /** {@code c} under the valid convention. */
  private static Case valid(Case c) {
    PoolOp op = (PoolOp) c.op();
    return new Case(
        new PoolOp(op.type(), op.kernel(), op.stride(), op.pad(), PoolConvention.VALID),
        c.spec(),
        c.input());
  }

  /** {@value #CASES} random pools under {@code convention}, alternately 1-D and 2-D. */
  private static List<Case> table(Random rng, PoolConvention convention) {
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      int spatial = 1 + i % 2;
      int size = 1 + rng.nextInt(9);
      int k = 1 + rng.nextInt(4);
      int s = 1 + rng.nextInt(3);
      int p = rng.nextInt(Math.max(1, k));
      PoolOp.Type type = rng.nextBoolean() ? PoolOp.Type.MAX : PoolOp.Type.AVG;
      PoolOp op = new PoolOp(type, List.of(k), List.of(s), List.of(p), convention);
      int[] window = spatial == 1 ? new int[] {k} : new int[] {k, k};
      PoolOp spec =
          (type == PoolOp.Type.MAX ? PoolOp.max(window) : PoolOp.avg(window))
              .stride(fill(window, s))
              .pad(fill(window, p))
              .convention(convention);
      int[] input = spatial == 1 ? new int[] {1, 2, size} : new int[] {1, 2, size, size + 1};
      cases.add(new Case(op, spec, input));
    }
    return cases;
  }

  private static int[] fill(int[] like, int value) {
    int[] v = like.clone();
    Arrays.fill(v, value);
    return v;
  }
}
