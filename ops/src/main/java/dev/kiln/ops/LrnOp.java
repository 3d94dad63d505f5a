package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.d;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Lrn;
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
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * Local response normalisation across channels ({@code @Lrn}) over {@code [N, C, H, W]}: MXNet's
 * {@code LRN}, {@code out = x / (k + alpha / size · Σ x²)^beta} with the sum over the {@code size}
 * channels centred on each one (those that exist). Generated code writes {@code LrnOp.size(5)},
 * then {@code .alpha(...)}, {@code .beta(...)} and {@code .k(...)} where they differ from MXNet's
 * defaults (1e-4, 0.75 and 2).
 *
 * @param size channels in each window ({@code nsize})
 * @param alpha the sum's scale, which MXNet divides by {@code size}
 * @param beta the exponent
 * @param k added to the scaled sum ({@code knorm})
 */
public record LrnOp(int size, double alpha, double beta, double k) implements LayerOp {
  /** The default {@code alpha} (MXNet's), which the generated call leaves out. */
  public static final double ALPHA = Defaults.decimal(Lrn.class, "alpha");

  /** The default {@code beta} (MXNet's). */
  public static final double BETA = Defaults.decimal(Lrn.class, "beta");

  /** The default {@code k} (MXNet's {@code knorm}). */
  public static final double K = Defaults.decimal(Lrn.class, "k");

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

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
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
        chain(LrnOp.class, "size", i(size))
            .when(alpha != ALPHA, "alpha", d(alpha))
            .when(beta != BETA, "beta", d(beta))
            .when(k != K, "k", d(k));
    return NodeCall.Builder.of("node", spec.build(), x());
  }

  /** Windows of {@code size} channels, with MXNet's default alpha, beta and k. */
  public static LrnOp size(int size) {
    return new LrnOp(size, ALPHA, BETA, K);
  }

  /** The sum's scale {@code alpha}. */
  public LrnOp alpha(double alpha) {
    return new LrnOp(size, alpha, beta, k);
  }

  /** The exponent {@code beta}. */
  public LrnOp beta(double beta) {
    return new LrnOp(size, alpha, beta, k);
  }

  /** The constant {@code k} added to the scaled sum. */
  public LrnOp k(double k) {
    return new LrnOp(size, alpha, beta, k);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(
        "LRN", Attrs.of("nsize", size, "alpha", alpha, "beta", beta, "knorm", k), inputs.get(0));
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT = Unit.of(READER).file("LRN", List.of(), LrnOp::lrn);

  static Mapped lrn(FileAttrs a) {
    Op op =
        new LrnOp(
            a.integer("nsize", 0),
            a.decimal("alpha", ALPHA),
            a.decimal("beta", BETA),
            a.decimal("knorm", K));
    return Mapped.unary(op);
  }
}
