package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Sym;
import dev.kiln.annotations.Upsample;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * Upsampling of images {@code [N, C, H, W]} by a whole factor ({@code @Upsample}) to {@code [N, C,
 * H · scale, W · scale]}: MXNet's {@code UpSampling} with {@code sample_type = nearest}, or {@code
 * _contrib_BilinearResize2D} scaled by {@code scale} along both axes. Neither has parameters.
 * Generated code writes {@code UpsampleOp.nearest(2)} or {@code UpsampleOp.bilinear(2)}.
 *
 * @param scale how many output positions each input position becomes along each axis
 * @param mode nearest or bilinear
 */
public record UpsampleOp(int scale, Upsample.Mode mode) implements LayerOp {
  static final OpReader<Upsample> READER =
      OpReader.of(Upsample.class, u -> new UpsampleOp(u.scale(), u.mode()), "scale", "mode");

  /** Each value repeated {@code scale} × {@code scale} times. */
  public static UpsampleOp nearest(int scale) {
    return new UpsampleOp(scale, Upsample.Mode.NEAREST);
  }

  /** Bilinear interpolation to {@code scale} times the height and width. */
  public static UpsampleOp bilinear(int scale) {
    return new UpsampleOp(scale, Upsample.Mode.BILINEAR);
  }

  @Override
  public String annotation() {
    return "Upsample";
  }

  @Override
  public String mxnetOp() {
    return mode == Upsample.Mode.NEAREST ? "UpSampling(nearest)" : "BilinearResize2D";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.positive("scale", scale);
  }

  /** Free dimensions pass through or follow the rule's arithmetic as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /**
   * MXNet {@code UpSamplingShape} and {@code BilinearSampleOpInferShape}: rank 4, height and width
   * times {@code scale} (unknown where the input's are).
   */
  @Override
  public Inferred infer(ShapeSite site) {
    site.requireRank("@Upsample", 4, "[N, C, H, W]");
    TShape s = site.shape();
    return Inferred.of(TShape.of(s.dim(0), s.dim(1), times(s.dim(2)), times(s.dim(3))));
  }

  private int times(int size) {
    if (TShape.isFree(size)) {
      return TShape.size(TShape.expression(size).times(scale));
    }
    return size < 0 ? size : size * scale;
  }

  /** Nearest copies; bilinear weighs four input values per output value (a multiply-add each). */
  @Override
  public long flops(List<TShape> in, TShape out) {
    return mode == Upsample.Mode.NEAREST ? 0 : 8 * out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    String factory = mode == Upsample.Mode.NEAREST ? "nearest" : "bilinear";
    return NodeCall.Builder.of("node", chain(UpsampleOp.class, factory, i(scale)).build(), x());
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (mode == Upsample.Mode.NEAREST) {
      return scope.op(
          "UpSampling",
          scope.node(),
          Attrs.of("scale", scale, "sample_type", "nearest", "num_args", 1),
          null,
          inputs);
    }
    return scope.op(
        "_contrib_BilinearResize2D",
        Attrs.of("scale_height", scale, "scale_width", scale, "mode", "size"),
        inputs.get(0));
  }

  /** How the layer is read: its annotation, and the symbol-file operators that are it. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("UpSampling", List.of(), UpsampleOp::upSampling)
          .file("_contrib_BilinearResize2D", List.of(), UpsampleOp::bilinearResize);

  /** MXNet's {@code UpSampling} of one input by nearest neighbour (bilinear has a weight). */
  static Mapped upSampling(FileAttrs a) {
    a.ignore("workspace", "multi_input_mode");
    a.require("sample_type", "nearest", "Kiln imports nearest upsampling");
    a.require("num_args", "1", "Kiln upsamples one input");
    a.ignore("num_filter");
    return Mapped.unary(nearest(a.integer("scale", 1)));
  }

  /** MXNet's {@code BilinearResize2D} by one whole scale along both axes. */
  static Mapped bilinearResize(FileAttrs a) {
    a.require("mode", "size", "Kiln imports a bilinear resize by a scale");
    a.ignore("height", "width");
    double h = a.decimal("scale_height", Double.NaN);
    double w = a.decimal("scale_width", Double.NaN);
    if (h != w || h != Math.rint(h) || !(h >= 1)) {
      throw a.unsupported("scale_height", "Kiln imports one whole scale along both axes");
    }
    return Mapped.unary(bilinear((int) h));
  }
}
