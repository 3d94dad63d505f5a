package dev.kiln.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
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
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The compile-time shape rules of the element-wise and tensor operations against MXNet 1.9.1
 * itself: for tables of shapes and attributes drawn at random (every size known, so that Kiln's
 * rule is MXNet's), the op's output shape must be the one MXNet computes when it runs the node,
 * built from the very spec the op plans for generated code; where the processor refuses, MXNet must
 * refuse too (when it infers shapes, binds, or runs).
 */
class TensorShapesTest {
  private static final int CASES = 60;

  /** One node over known input shapes. */
  private record Case(Op op, List<int[]> inputs) {
    @Override
    public String toString() {
      return op + " over " + inputs.stream().map(Arrays::toString).toList();
    }
  }

  private static List<Source> sources(Case c) {
    List<Source> in = new ArrayList<>();
    for (int i = 0; i < c.inputs().size(); i++) {
      in.add(new Source(TShape.of(c.inputs().get(i)), "x" + i, "@Input"));
    }
    return in;
  }

  /** The processor's answer: the output shape, or the id of the rule it reports. */
  private static Object processor(Case c) {
    try {
      c.op().checkAttributes(new AttributeSite("layer", "T.layer()", "@" + c.op().annotation()));
      Inferred out = c.op().infer(new ShapeSite("T.layer()", "layer", "@L", sources(c)));
      return out.shape().toString();
    } catch (RuleError e) {
      return e.message.id();
    }
  }

  /**
   * The runtime spec the op plans for a node of output {@code out}, made as generated code does.
   */
  static LayerOp spec(Op op, TShape out, List<TShape> in) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < in.size(); i++) {
      names.add("x" + i);
    }
    NodeCall.Builder call =
        (NodeCall.Builder) op.call(new CallSite("layer", out, names, in, false));
    NodeCall.Chain chain = (NodeCall.Chain) call.args().get(0);
    try {
      Class<?> type = chain.type();
      Object spec = null;
      for (NodeCall.Link link : chain.links()) {
        spec = invoke(type, spec, link);
      }
      return (LayerOp) spec;
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(chain + ": " + e, e);
    }
  }

  private static Object invoke(Class<?> type, Object target, NodeCall.Link link)
      throws ReflectiveOperationException {
    List<Object> values = new ArrayList<>();
    for (NodeCall.Arg a : link.args()) {
      if (a instanceof NodeCall.Int i) {
        values.add(i.value());
      } else if (a instanceof NodeCall.Decimal d) {
        values.add(d.value());
      } else if (a instanceof NodeCall.Bool b) {
        values.add(b.value());
      } else if (a instanceof NodeCall.Activation act) {
        values.add(act.act());
      } else {
        throw new AssertionError("argument " + a);
      }
    }
    for (Method m : type.getMethods()) {
      if (!m.getName().equals(link.method())) {
        continue;
      }
      Class<?>[] p = m.getParameterTypes();
      if (p.length == 1 && p[0] == int[].class) {
        return m.invoke(target, (Object) values.stream().mapToInt(v -> (Integer) v).toArray());
      }
      if (p.length == values.size()) {
        return m.invoke(target, values.toArray());
      }
    }
    throw new NoSuchMethodException(type.getSimpleName() + "." + link.method());
  }

  /** MXNet's answer: the output shape of the node it runs, or why it refused. */
  private static Object mxnet(Case c, LayerOp spec) {
    GraphBuilder b = new GraphBuilder("T");
    try {
      List<Sym> xs = new ArrayList<>();
      for (int i = 0; i < c.inputs().size(); i++) {
        xs.add(
            b.input(
                new NodeSource("x" + i, "T.x" + i + "()", "@Input"), Shape.of(c.inputs().get(i))));
      }
      Sym y = b.node(new NodeSource("layer", "T.layer()", "@L"), spec, xs.toArray(Sym[]::new));
      try (Graph g = b.build(List.of(y));
          ModelRuntime m = new ModelRuntime("T", g, Init.xavier(), 0);
          NDManager nd = NDManager.newBaseManager()) {
        NDArray[] in = new NDArray[c.inputs().size()];
        for (int i = 0; i < in.length; i++) {
          long[] dims = Arrays.stream(c.inputs().get(i)).asLongStream().toArray();
          in[i] = nd.ones(new ai.djl.ndarray.types.Shape(dims));
        }
        long[] shape = m.forward(in)[0].getShape().getShape();
        return TShape.of(Arrays.stream(shape).mapToInt(v -> (int) v).toArray()).toString();
      }
    } catch (RuntimeException e) {
      return "refused: " + e.getMessage();
    }
  }

  /**
   * Every case agrees; both sides of the rule are exercised, and each of {@code refusals} is among
   * the rules Kiln reported.
   */
  private static void agree(List<Case> cases, String... refusals) {
    int accepted = 0;
    List<String> reported = new ArrayList<>();
    List<String> disagreements = new ArrayList<>();
    for (Case c : cases) {
      Object expected = processor(c);
      boolean kilnRefuses = !((String) expected).startsWith("[");
      TShape out = kilnRefuses ? null : parse((String) expected);
      LayerOp spec = kilnRefuses ? fallbackSpec(c) : spec(c.op(), out, shapes(c));
      Object actual = mxnet(c, spec);
      boolean mxnetRefuses = ((String) actual).startsWith("refused");
      if (kilnRefuses ? !mxnetRefuses : !expected.equals(actual)) {
        disagreements.add(c + ": Kiln " + expected + ", MXNet " + actual);
      }
      if (kilnRefuses) {
        reported.add((String) expected);
      } else {
        accepted++;
      }
    }
    assertEquals(List.of(), disagreements);
    assertTrue(accepted >= cases.size() / 3, "accepted " + accepted);
    for (String id : refusals) {
      assertTrue(reported.contains(id), id + " never reported: " + reported);
    }
  }

  private static List<TShape> shapes(Case c) {
    return c.inputs().stream().map(TShape::of).toList();
  }

  private static TShape parse(String shape) {
    String inner = shape.substring(1, shape.length() - 1);
    return TShape.of(Arrays.stream(inner.split(", ")).mapToInt(Integer::parseInt).toArray());
  }

  /**
   * A spec for a node the processor refuses, so that MXNet can be asked too: the op's plan for an
   * output it would not have (the plans of these ops do not depend on the output shape beyond its
   * rank, which is the first input's).
   */
  private static LayerOp fallbackSpec(Case c) {
    if (c.op() instanceof ReduceOp r) {
      // The axes as written, repeated or out of range: the plan writes only checked ones.
      return new ReduceOp(r.kind(), r.axes(), r.keptDims());
    }
    return spec(c.op(), TShape.of(c.inputs().get(0)), shapes(c));
  }

  @Test
  void broadcastShapesAreMxnets() {
    Random rng = new Random(31);
    List<Case> cases = new ArrayList<>();
    BroadcastOp.Kind[] kinds = BroadcastOp.Kind.values();
    for (int i = 0; i < CASES; i++) {
      int rank = 1 + rng.nextInt(i % 10 == 0 ? 7 : 5);
      int[] a = new int[rank];
      int[] b = new int[rank];
      for (int d = 0; d < rank; d++) {
        int size = 2 + rng.nextInt(2);
        int form = rng.nextInt(100);
        a[d] = form < 25 ? 1 : size;
        b[d] = form >= 25 && form < 50 ? 1 : form >= 95 ? size + 1 : size;
      }
      cases.add(new Case(new BroadcastOp(kinds[i % kinds.length]), List.of(a, b)));
    }
    // Six alternating runs: MXNet's kernels refuse them when they run.
    cases.add(
        new Case(
            new BroadcastOp(BroadcastOp.Kind.MULTIPLY),
            List.of(new int[] {2, 1, 3, 1, 3, 1}, new int[] {2, 3, 1, 3, 1, 3})));
    cases.add(
        new Case(
            new BroadcastOp(BroadcastOp.Kind.MAXIMUM),
            List.of(new int[] {1, 3, 1, 3, 1, 2, 2}, new int[] {3, 1, 3, 1, 3, 1, 2})));
    agree(cases, "BroadcastMismatch", "BroadcastRuns");
  }

  @Test
  void unequalRanksAreKilnsOwnRefusal() {
    // MXNet broadcasts a [4] gate along the last axis of [2, 4, 3, 4]; Kiln refuses it, since it
    // works only because the width happens to equal the channels.
    Case c =
        new Case(
            new BroadcastOp(BroadcastOp.Kind.MULTIPLY),
            List.of(new int[] {2, 4, 3, 4}, new int[] {4}));
    assertEquals("BroadcastRank", processor(c));
    assertEquals("[2, 4, 3, 4]", mxnet(c, fallbackSpec(c)));
  }

  @Test
  void matrixProductShapesAreMxnets() {
    Random rng = new Random(32);
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      int rank = 2 + rng.nextInt(3);
      boolean ta = rng.nextBoolean();
      boolean tb = rng.nextBoolean();
      int m = 1 + rng.nextInt(4);
      int k = 1 + rng.nextInt(4);
      int n = 1 + rng.nextInt(4);
      int k2 = rng.nextInt(100) < 20 ? k % 4 + 1 : k;
      int[] a = new int[rank];
      int[] b = new int[rank];
      for (int d = 0; d < rank - 2; d++) {
        a[d] = 1 + rng.nextInt(3);
        b[d] = rng.nextInt(100) < 15 ? a[d] % 3 + 1 : a[d];
      }
      a[rank - 2] = ta ? k : m;
      a[rank - 1] = ta ? m : k;
      b[rank - 2] = tb ? n : k2;
      b[rank - 1] = tb ? k2 : n;
      cases.add(new Case(new MatMulOp(MatMulOp.BY_RANK, ta, tb), List.of(a, b)));
    }
    agree(cases, "MatMulInner", "MatMulBatch");
  }

  @Test
  void vectorsAndUnequalRanksAreKilnsOwnRefusals() {
    // MXNet's dot takes a stack by a matrix and a matrix by a vector; Kiln's @MatMul takes equal
    // ranks of 2 or more (a vector is a one-column matrix, a projection of each row a @Dense).
    Case stack =
        new Case(
            new MatMulOp(MatMulOp.BY_RANK, false, false),
            List.of(new int[] {2, 3, 4}, new int[] {4, 5}));
    assertEquals("RankMismatch", processor(stack));
    assertEquals("[2, 3, 5]", mxnet(stack, spec(stack.op(), TShape.of(2, 5), shapes(stack))));
    Case vector =
        new Case(
            new MatMulOp(MatMulOp.BY_RANK, false, false), List.of(new int[] {2, 4}, new int[] {4}));
    assertEquals("WrongRank", processor(vector));
    assertEquals("[2]", mxnet(vector, spec(vector.op(), TShape.of(2, 1), shapes(vector))));
  }

  @Test
  void transposeShapesAreMxnets() {
    Random rng = new Random(33);
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      int rank = 1 + rng.nextInt(6);
      int[] shape = new int[rank];
      List<Integer> axes = new ArrayList<>();
      for (int d = 0; d < rank; d++) {
        shape[d] = 1 + rng.nextInt(4);
        axes.add(d);
      }
      java.util.Collections.shuffle(axes, rng);
      List<Integer> written = new ArrayList<>();
      for (int a : axes) {
        // Negative axes count from the end; Kiln writes MXNet the non-negative ones.
        written.add(rng.nextInt(100) < 25 ? a - rank : a);
      }
      int form = rng.nextInt(100);
      if (form < 8) {
        written = List.of();
      } else if (form < 14 && rank > 1) {
        written.set(0, written.get(1));
      } else if (form < 20) {
        written.set(rng.nextInt(rank), rank);
      } else if (form < 24) {
        written.remove(0);
      }
      cases.add(new Case(new TransposeOp(written), List.of(shape)));
    }
    // Seven axes, one more than MXNet transposes.
    cases.add(new Case(new TransposeOp(List.of()), List.of(new int[] {1, 2, 1, 2, 1, 2, 1})));
    agree(cases, "BadPermutation", "WrongRank");
  }

  @Test
  void sliceShapesAreMxnets() {
    Random rng = new Random(34);
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      int rank = 1 + rng.nextInt(4);
      int[] shape = new int[rank];
      for (int d = 0; d < rank; d++) {
        shape[d] = 1 + rng.nextInt(6);
      }
      int axis = rng.nextInt(2 * rank + 1) - rank;
      int size = shape[Math.floorMod(axis, rank)];
      // Indices around the axis, either sign, now and then past it or empty.
      int begin = rng.nextInt(size + 2) - (rng.nextBoolean() ? size + 1 : 0);
      int end =
          rng.nextInt(100) < 25
              ? dev.kiln.annotations.Slice.END
              : rng.nextInt(size + 2) - (rng.nextBoolean() ? size : 0);
      cases.add(new Case(new SliceOp(axis, begin, end, false), List.of(shape)));
    }
    agree(cases, "BadSlice", "BadAxis");
  }

  @Test
  void meanAndSumShapesAreMxnets() {
    Random rng = new Random(35);
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      int rank = 1 + rng.nextInt(4);
      int[] shape = new int[rank];
      for (int d = 0; d < rank; d++) {
        shape[d] = 1 + rng.nextInt(4);
      }
      List<Integer> axes = new ArrayList<>();
      for (int d = 0; d < rank; d++) {
        if (rng.nextInt(100) < 40) {
          axes.add(rng.nextBoolean() ? d - rank : d);
        }
      }
      int form = rng.nextInt(100);
      if (form < 8 && !axes.isEmpty()) {
        int a = Math.floorMod(axes.get(0), rank);
        axes.add(a == axes.get(0) ? a - rank : a);
      } else if (form < 14) {
        axes.add(rng.nextBoolean() ? rank : -rank - 1);
      }
      ReduceOp.Kind kind = rng.nextBoolean() ? ReduceOp.Kind.MEAN : ReduceOp.Kind.SUM;
      cases.add(new Case(new ReduceOp(kind, axes, rng.nextBoolean()), List.of(shape)));
    }
    agree(cases, "RepeatedAxis", "BadAxis");
  }
}
