package dev.kiln.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Act;
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
 * The compile-time shape rules of the convolutions ({@link ConvOp}, {@link DeconvOp}) against MXNet
 * 1.9.1 itself: for a table of sizes, kernels, strides, paddings, dilations, output paddings and
 * groups drawn at random, the layer is built and run on MXNet, and the output and weight shapes it
 * makes must be those the processor inferred; where the processor refuses a layer, MXNet must
 * refuse it too.
 */
class ConvShapesTest {
  private static final int CASES = 40;

  /** One layer over one input, as the processor sees it and as the runtime builds it. */
  private record Case(Op op, LayerOp spec, int[] input) {
    @Override
    public String toString() {
      return op + " over " + Arrays.toString(input);
    }
  }

  /** The processor's answer: the output and weight shapes, or the rule it reports. */
  private static Object processor(Case c) {
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
      return List.of(out.shape().toString(), out.params().get(0).shape().toString());
    } catch (RuleError e) {
      return e.message.id();
    }
  }

  /** MXNet's answer for a batch of 1, written as the processor writes shapes. */
  private static Object mxnet(Case c) {
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
        int[] weight = m.param("layer_weight").shape().dims();
        return List.of(
            written(Arrays.stream(shape).mapToInt(v -> (int) v).toArray(), true),
            written(weight, false));
      }
    } catch (RuntimeException e) {
      return "refused: " + e.getMessage();
    }
  }

  private static String written(int[] shape, boolean batch) {
    int[] dims = shape.clone();
    if (batch) {
      dims[0] = TShape.BATCH;
    }
    return TShape.of(dims).toString();
  }

  private static void agree(List<Case> cases) {
    int accepted = 0;
    int refused = 0;
    List<String> disagreements = new ArrayList<>();
    for (Case c : cases) {
      Object expected = processor(c);
      Object actual = mxnet(c);
      boolean kilnRefuses = expected instanceof String;
      boolean mxnetRefuses = actual instanceof String;
      if (kilnRefuses ? !mxnetRefuses : !expected.equals(actual)) {
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

  private static List<Integer> one(int v) {
    return List.of(v);
  }

  @Test
  void deconvolutionSizesAreMxnets() {
    Random rng = new Random(21);
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      int h = 1 + rng.nextInt(6);
      int w = 1 + rng.nextInt(6);
      int k = 1 + rng.nextInt(4);
      int s = 1 + rng.nextInt(3);
      int p = rng.nextInt(3);
      int adj = rng.nextInt(s + (i % 8 == 0 ? 1 : 0));
      int d = 1 + rng.nextInt(2);
      int groups = rng.nextBoolean() ? 1 : 2;
      int channels = 2 * (1 + rng.nextInt(2));
      int filters = 2 * (1 + rng.nextInt(2));
      DeconvOp op =
          new DeconvOp(
              filters, one(k), one(s), one(p), List.of(0, adj), one(d), groups, Act.NONE, false);
      DeconvOp spec =
          DeconvOp.filters(filters)
              .kernel(k, k)
              .stride(s, s)
              .pad(p, p)
              .outputPad(0, adj)
              .dilation(d, d)
              .groups(groups);
      cases.add(new Case(op, spec, new int[] {1, channels, h, w}));
    }
    agree(cases);
  }

  @Test
  void convolutionSizesAreMxnetsInOneAndTwoDimensions() {
    Random rng = new Random(22);
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      int spatial = 1 + i % 2;
      int size = 1 + rng.nextInt(8);
      int k = 1 + rng.nextInt(4);
      int s = 1 + rng.nextInt(3);
      int p = rng.nextInt(2);
      int d = 1 + rng.nextInt(2);
      int groups = List.of(1, 2, 4).get(rng.nextInt(3));
      int channels = 4;
      int filters = i % 10 == 3 ? 6 : 4 * (1 + rng.nextInt(2));
      ConvOp op =
          new ConvOp(spatial, filters, one(k), one(s), one(p), one(d), groups, Act.NONE, false);
      int[] window = spatial == 1 ? new int[] {k} : new int[] {k, k};
      ConvOp spec =
          ConvOp.filters(filters)
              .kernel(window)
              .stride(fill(window, s))
              .pad(fill(window, p))
              .dilation(fill(window, d))
              .groups(groups);
      int[] input =
          spatial == 1 ? new int[] {1, channels, size} : new int[] {1, channels, size, size + 1};
      cases.add(new Case(op, spec, input));
    }
    agree(cases);
  }

  private static int[] fill(int[] like, int value) {
    int[] v = like.clone();
    Arrays.fill(v, value);
    return v;
  }

  @Test
  void theRuntimeSpecRefusesAWindowOfTheWrongLength() {
    GraphBuilder b = new GraphBuilder("T");
    Sym x = b.input(new NodeSource("x", "T.x()", "@Input"), Shape.of(-1, 1, 4, 4));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                b.node(
                    new NodeSource("c", "T.c()", "@Conv2D"),
                    ConvOp.filters(1).kernel(2, 2).stride(1, 1, 1),
                    x));
    assertEquals(
        "[kiln:BadWindow] T.c() @Conv2D: stride takes one value (used for height and width) or two "
            + "({height, width}), got 3",
        e.getMessage());
  }
}
