package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * A matrix product ({@code @MatMul}): MXNet's {@code dot} for two matrices, {@code batch_dot} for
 * two stacks of them, the first input on the left, either transposed. Generated code writes {@code
 * MatMulSpec.batched().transposeB()}.
 *
 * @param op {@code dot} or {@code batch_dot}
 * @param transposedA whether the left matrices are transposed
 * @param transposedB whether the right matrices are transposed
 */
public record MatMulSpec(String op, boolean transposedA, boolean transposedB) implements LayerOp {
  /** The product of two matrices, MXNet's {@code dot}. */
  public static MatMulSpec matrices() {
    return new MatMulSpec("dot", false, false);
  }

  /** The products of two stacks of matrices, pair by pair, MXNet's {@code batch_dot}. */
  public static MatMulSpec batched() {
    return new MatMulSpec("batch_dot", false, false);
  }

  /** This product with the left matrices transposed. */
  public MatMulSpec transposeA() {
    return new MatMulSpec(op, true, transposedB);
  }

  /** This product with the right matrices transposed. */
  public MatMulSpec transposeB() {
    return new MatMulSpec(op, transposedA, true);
  }

  @Override
  public int arity() {
    return 2;
  }

  /**
   * MXNet's operator, named after the node. A {@code batch_dot} reads its inputs through {@code
   * <node>_lhs_default_layout} and {@code <node>_rhs_default_layout} and its output goes through
   * {@code <node>_default_layout}: MXNet 1.9.1's {@code batch_dot} fails on an array that oneDNN
   * left in a blocked layout, whether an input (a convolution's output of 16 filters) or its head
   * gradient (from a convolution after it): "We can't generate TBlob for MKLDNN data". Each is
   * {@code clip} to {@code [-inf, inf]}, an exact identity forward and backward whose kernel writes
   * the default layout both ways (an identity {@code Reshape} mends the inputs, but neither it nor
   * a {@code Cast} after the product mends the head gradient, as measured; {@code TensorOpsTest}
   * fails without them).
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Attrs attrs = Attrs.of("transpose_a", transposedA, "transpose_b", transposedB);
    List<String> keys = List.of("lhs", "rhs");
    if (op.equals("dot")) {
      return scope.op(op, scope.node(), attrs, keys, inputs);
    }
    List<Sym> args =
        List.of(
            defaultLayout(scope, inputs.get(0), "_lhs"),
            defaultLayout(scope, inputs.get(1), "_rhs"));
    return defaultLayout(scope, scope.op(op, scope.node(), attrs, keys, args), "");
  }

  private static Sym defaultLayout(NodeScope scope, Sym x, String side) {
    return scope.op(
        "clip",
        scope.node() + side + "_default_layout",
        Attrs.of("a_min", "-inf", "a_max", "inf"),
        List.of("data"),
        List.of(x));
  }
}
