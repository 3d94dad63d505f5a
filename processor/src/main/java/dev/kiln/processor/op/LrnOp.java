package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.d;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.Lrn;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.List;

/**
 * {@code @Lrn}: MXNet's {@code LRN} across channels over {@code [N, C, H, W]}.
 *
 * @param size channels in each window ({@code nsize})
 * @param alpha the sum's scale, which MXNet divides by {@code size}
 * @param beta the exponent
 * @param k added to the scaled sum ({@code knorm})
 */
record LrnOp(int size, double alpha, double beta, double k) implements Op {
  /** MXNet's defaults, which the generated call leaves out. */
  private static final double ALPHA = 1e-4;

  private static final double BETA = 0.75;
  private static final double K = 2;

  static final OpReader<Lrn> READER =
      OpReader.of(
          Lrn.class,
          l -> new LrnOp(l.size(), l.alpha(), l.beta(), l.k()),
          "size",
          "alpha",
          "beta",
          "k");

  @Override
  public String annotation() {
    return "Lrn";
  }

  @Override
  public String mxnetOp() {
    return "LRN";
  }

  @Override
  public int arity() {
    return 1;
  }

  /**
   * MXNet's rule, {@code nsize} odd (its kernel centres the window on each channel), and ranges
   * that keep {@code k + alpha / size · Σ x²} positive and finite.
   */
  @Override
  public void checkAttributes(AttributeSite site) {
    site.positive("size", size);
    if (size % 2 == 0) {
      throw site.fail(Message.EVEN_LRN_SIZE, "size", site.prefix(), size, size - 1, size + 1);
    }
    if (!(alpha >= 0 && alpha < Double.POSITIVE_INFINITY)) {
      throw site.fail(
          Message.OUT_OF_RANGE, "alpha", site.prefix(), "alpha", "0 or more and finite", alpha);
    }
    if (!Double.isFinite(beta)) {
      throw site.fail(Message.OUT_OF_RANGE, "beta", site.prefix(), "beta", "finite", beta);
    }
    if (!(k > 0 && k < Double.POSITIVE_INFINITY)) {
      throw site.fail(Message.OUT_OF_RANGE, "k", site.prefix(), "k", "positive and finite", k);
    }
  }

  /**
   * MXNet {@code LRNShape}: the input's shape. Its kernels add what the shape function leaves out:
   * rank 4 (without oneDNN, {@code Tensor<cpu, 4>}) and no more channels in a window than there are
   * ({@code chpool}: local size must be smaller than nchannels).
   */
  @Override
  public Inferred infer(ShapeSite site) {
    site.requireRank("@Lrn", 4, "[N, C, H, W]");
    int c = site.shape().dim(1);
    if (c >= 0 && size > c) {
      throw site.fail(
          Message.LRN_SIZE_TOO_LARGE, "size", site.prefix(), size, c, site.x().describe());
    }
    return Inferred.of(site.shape());
  }

  /** Per value: the window's squares and sum (2 per channel), then scale, add, power, divide. */
  @Override
  public long flops(List<TShape> in, TShape out) {
    return (2L * size + 4) * out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    Args.Chain spec =
        chain("LrnSpec", "size", i(size))
            .when(alpha != ALPHA, "alpha", d(alpha))
            .when(beta != BETA, "beta", d(beta))
            .when(k != K, "k", d(k));
    return NodeCall.Builder.of("node", spec.build(), x());
  }
}
