package dev.kiln.processor.op;

import dev.kiln.annotations.MatMul;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.Source;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code @MatMul}: MXNet's {@code dot} for two matrices, {@code batch_dot} for two stacks of them.
 *
 * @param transposeA whether the left matrices are transposed
 * @param transposeB whether the right matrices are transposed
 */
record MatMulOp(boolean transposeA, boolean transposeB) implements Op {
  static final OpReader<MatMul> READER =
      OpReader.of(
          MatMul.class,
          m -> new MatMulOp(m.transposeA(), m.transposeB()),
          "transposeA",
          "transposeB");

  @Override
  public String annotation() {
    return "MatMul";
  }

  @Override
  public String mxnetOp() {
    return "dot/batch_dot";
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
    int ka = inner(n, transposeA, true);
    int kb = inner(n, transposeB, false);
    if (x.dim(ka) != y.dim(kb)) {
      throw site.fail(
          Message.MATMUL_INNER,
          null,
          site.where(),
          site.node().annotationText(),
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
          site.node().annotationText(),
          "sum over",
          ka,
          a.describe(),
          "keep the batch outside the product, e.g. as the first axis of [BATCH, m, k] by "
              + "[BATCH, k, n] (made with @Reshape or @Transpose)");
    }
    return Inferred.of(product(x, y, transposeA, transposeB));
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
      boolean ta = transposeA ^ (t & 2) != 0;
      boolean tb = transposeB ^ (t & 1) != 0;
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
    int p = x.dim(inner(n, transposeA, true));
    int q = y.dim(inner(n, transposeB, false));
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
    int k = x.dim(inner(x.rank(), transposeA, true));
    return 2L * out.perExample() * Math.max(k, 1);
  }

  @Override
  public NodeCall call(CallSite site) {
    boolean matrices = site.shape().rank() == 2;
    return NodeCall.Builder.of(
        "node",
        Args.chain("MatMulSpec", matrices ? "matrices" : "batched")
            .when(transposeA, "transposeA")
            .when(transposeB, "transposeB")
            .build(),
        new NodeCall.Inputs());
  }
}
