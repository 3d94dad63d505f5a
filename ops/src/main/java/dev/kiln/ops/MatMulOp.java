package dev.kiln.ops;

import dev.kiln.annotations.MatMul;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * A matrix product ({@code @MatMul}): MXNet's {@code dot} for two matrices, {@code batch_dot} for
 * two stacks of them, the first input on the left, either transposed. Generated code writes {@code
 * MatMulOp.batched().transposeB()}.
 *
 * @param op {@code dot} for two matrices, {@code batch_dot} for two stacks of them, or, read from
 *     the annotation, {@code dot/batch_dot}: chosen by the inputs' rank when the model is checked
 * @param transposedA whether the left matrices are transposed
 * @param transposedB whether the right matrices are transposed
 */
public record MatMulOp(String op, boolean transposedA, boolean transposedB) implements LayerOp {
  /** The operator of a product read from an annotation, chosen by the rank when it is checked. */
  static final String BY_RANK = "dot/batch_dot";

  static final OpReader<MatMul> READER =
      OpReader.of(
          MatMul.class,
          m -> new MatMulOp(BY_RANK, m.transposeA(), m.transposeB()),
          "transposeA",
          "transposeB");

  @Override
  public String annotation() {
    return "MatMul";
  }

  @Override
  public String mxnetOp() {
    return op;
  }

  @Override
  public int arity() {
    return 2;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // Both values are valid for any shapes.
  }

  /**
   * MXNet {@code DotShape} (rank 2) and {@code BatchDotShape} (rank 3 and more, equal leading
   * axes): {@code [.., m, k]} by {@code [.., k, n]} after the transposes is {@code [.., m, n]}. An
   * inner axis of {@code BATCH} would sum over the examples of a batch and is refused.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    Source a = site.in().get(0);
    Source b = site.in().get(1);
    for (Source s : site.in()) {
      if (s.shape().rank() < 2) {
        String hint =
            s.shape().rank() == 1
                ? "; to multiply by a vector, make it a matrix of one column first: "
                    + "@Reshape(shape = {"
                    + s.shape().asArguments()
                    + ", 1})"
                : "";
        throw site.fail(
            Message.WRONG_RANK,
            null,
            site.where(),
            "@MatMul",
            "2 or higher",
            "[.., rows, columns]",
            s.describe(),
            hint);
      }
    }
    TShape x = a.shape();
    TShape y = b.shape();
    if (x.rank() != y.rank()) {
      throw site.fail(
          Message.RANK_MISMATCH, null, site.where(), "@MatMul", Source.describeAll(site.in()));
    }
    int n = x.rank();
    for (int i = 0; i < n - 2; i++) {
      if (x.dim(i) != y.dim(i)) {
        throw site.fail(
            Message.MATMUL_BATCH,
            null,
            site.where(),
            "@MatMul",
            i,
            BroadcastOp.size(x.dim(i)),
            BroadcastOp.size(y.dim(i)),
            Source.describeAll(site.in()));
      }
    }
    int ka = inner(n, transposedA, true);
    int kb = inner(n, transposedB, false);
    if (x.dim(ka) != y.dim(kb)) {
      throw site.fail(
          Message.MATMUL_INNER,
          null,
          site.where(),
          site.annotationText(),
          ka,
          a.describe(),
          kb,
          b.describe(),
          BroadcastOp.size(x.dim(ka)),
          BroadcastOp.size(y.dim(kb)),
          innerHint(x, y));
    }
    if (x.dim(ka) == TShape.BATCH) {
      throw site.fail(
          Message.ACROSS_BATCH,
          null,
          site.where(),
          site.annotationText(),
          "sum over",
          ka,
          a.describe(),
          "keep the batch outside the product, e.g. as the first axis of [BATCH, m, k] by "
              + "[BATCH, k, n] (made with @Reshape or @Transpose)");
    }
    return Inferred.of(product(x, y, transposedA, transposedB));
  }

  /**
   * MXNet {@code DotShape} for {@code dot} of any ranks, as a custom layer's {@code Sym.dot} uses
   * it: the last axis of {@code x} is summed against the first of {@code y}, and the output has the
   * other axes of {@code x}, then those of {@code y}. Null when a rank is 0 or the inner sizes
   * differ ({@code BATCH} equals only {@code BATCH}, since its size is not known).
   */
  public static TShape dot(TShape x, TShape y) {
    if (x.rank() < 1 || y.rank() < 1 || x.dim(x.rank() - 1) != y.dim(0)) {
      return null;
    }
    List<Integer> out = new ArrayList<>(x.dims().subList(0, x.rank() - 1));
    out.addAll(y.dims().subList(1, y.rank()));
    return new TShape(out);
  }

  /** The inner (summed) axis of a rank-{@code n} left ({@code left}) or right factor. */
  private static int inner(int n, boolean transposed, boolean left) {
    return left == transposed ? n - 2 : n - 1;
  }

  /** The output of {@code x} by {@code y}: the leading axes, then the rows and the columns. */
  private static TShape product(TShape x, TShape y, boolean ta, boolean tb) {
    int n = x.rank();
    List<Integer> out = new ArrayList<>(x.dims().subList(0, n - 2));
    out.add(x.dim(ta ? n - 1 : n - 2));
    out.add(y.dim(tb ? n - 2 : n - 1));
    return new TShape(out);
  }

  /** Transposes that would make the inner sizes agree, or what the mismatch means. */
  private String innerHint(TShape x, TShape y) {
    int n = x.rank();
    for (int t = 1; t < 4; t++) {
      boolean ta = transposedA ^ (t & 2) != 0;
      boolean tb = transposedB ^ (t & 1) != 0;
      int k = x.dim(inner(n, ta, true));
      if (k == y.dim(inner(n, tb, false)) && k != TShape.BATCH) {
        List<String> set = new ArrayList<>();
        if (ta) {
          set.add("transposeA = true");
        }
        if (tb) {
          set.add("transposeB = true");
        }
        String written = set.isEmpty() ? "@MatMul" : "@MatMul(" + String.join(", ", set) + ")";
        return written + " would multiply them, giving " + product(x, y, ta, tb);
      }
    }
    int p = x.dim(inner(n, transposedA, true));
    int q = y.dim(inner(n, transposedB, false));
    if ((p < 0) != (q < 0)) {
      int unknown = Math.min(p, q);
      int known = Math.max(p, q);
      return BroadcastOp.size(unknown)
          + " against "
          + known
          + " agrees only for "
          + (unknown == TShape.BATCH ? "a batch of " + known : known + " steps");
    }
    return "change the layers that make them so that they agree";
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    TShape x = in.get(0);
    int k = x.dim(inner(x.rank(), transposedA, true));
    return 2L * out.perExample() * Math.max(k, 1);
  }

  @Override
  public NodeCall call(CallSite site) {
    boolean matrices = site.shape().rank() == 2;
    return NodeCall.Builder.of(
        "node",
        Args.chain(MatMulOp.class, matrices ? "matrices" : "batched")
            .when(transposedA, "transposeA")
            .when(transposedB, "transposeB")
            .build(),
        new NodeCall.Inputs());
  }

  /** The product of two matrices, MXNet's {@code dot}. */
  public static MatMulOp matrices() {
    return new MatMulOp("dot", false, false);
  }

  /** The products of two stacks of matrices, pair by pair, MXNet's {@code batch_dot}. */
  public static MatMulOp batched() {
    return new MatMulOp("batch_dot", false, false);
  }

  /** This product with the left matrices transposed. */
  public MatMulOp transposeA() {
    return new MatMulOp(op, true, transposedB);
  }

  /** This product with the right matrices transposed. */
  public MatMulOp transposeB() {
    return new MatMulOp(op, transposedA, true);
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
   *
   * @throws IllegalArgumentException for a product whose operator the shapes have not chosen
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Attrs attrs = Attrs.of("transpose_a", transposedA, "transpose_b", transposedB);
    List<String> keys = List.of("lhs", "rhs");
    if (op.equals("dot")) {
      return scope.op(op, scope.node(), attrs, keys, inputs);
    }
    if (!op.equals("batch_dot")) {
      throw new IllegalArgumentException(
          scope.source() + ": choose matrices() or batched() for the inputs' rank");
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

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("dot", List.of(), MatMulOp::dot)
          .file("batch_dot", List.of(), MatMulOp::dot);

  static Mapped dot(FileAttrs a) {
    a.ignore("forward_stype");
    Op op =
        new MatMulOp(MatMulOp.BY_RANK, a.bool("transpose_a", false), a.bool("transpose_b", false));
    return Mapped.data(op, 2);
  }
}
