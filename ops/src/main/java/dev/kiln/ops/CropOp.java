package dev.kiln.ops;

import static dev.kiln.ops.Args.i;

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
import java.util.ArrayList;
import java.util.List;

/**
 * MXNet's {@code Crop} in an imported file (the skip connections of FCN-style and RetinaFace-style
 * nets): a window of an image batch {@code [N, C, H, W]}, of height and width {@code h_w} (one
 * input) or of the second input's (two: {@code crop_like}, read for its shape only), at {@code
 * offset} {@code (y, x)} or in the centre. Emitted as MXNet's {@code Crop}. Generated code writes
 * {@code CropOp.window(12, 12).at(1, 2)} or {@code CropOp.likeSecond().centered()}. No annotation
 * makes one: the importer's table ({@link FileOps}) is its registry.
 *
 * @param cropLike whether the size is the second input's ({@code num_args = 2})
 * @param height the window's height when not {@code cropLike}
 * @param width the window's width when not {@code cropLike}
 * @param y the window's top row when not {@code center}
 * @param x the window's left column when not {@code center}
 * @param center whether the window is centred (the offsets rounded down)
 */
public record CropOp(boolean cropLike, int height, int width, int y, int x, boolean center)
    implements LayerOp {
  @Override
  public String annotation() {
    return "Crop";
  }

  @Override
  public String mxnetOp() {
    return "Crop";
  }

  @Override
  public int arity() {
    return cropLike ? 2 : 1;
  }

  /** A window of positive size and an offset of no negative value (MXNet's checks). */
  @Override
  public void checkAttributes(AttributeSite site) {
    if (!cropLike) {
      site.positive("h_w", height);
      site.positive("h_w", width);
    }
    if (y < 0 || x < 0) {
      throw site.fail(
          Message.OUT_OF_RANGE, "offset", site.prefix(), "offset", "at least 0", y + ", " + x);
    }
  }

  /**
   * MXNet {@code CropProp::InferShape} and {@code InferCropOfferset}: a rank-4 input; the window
   * {@code h_w}, or the second input's height and width, inside the input from its offset.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    if (s.rank() != 4) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          "Crop",
          "4",
          "[N, C, H, W]",
          site.x().describe(),
          "");
    }
    int h = height;
    int w = width;
    if (cropLike) {
      TShape other = site.in().get(1).shape();
      if (other.rank() != 4) {
        throw site.fail(
            Message.WRONG_RANK,
            null,
            site.where(),
            "Crop's crop_like",
            "4",
            "[N, C, H, W]",
            site.in().get(1).describe(),
            "");
      }
      h = other.dim(2);
      w = other.dim(3);
    }
    int top = center ? 0 : y;
    int left = center ? 0 : x;
    if (h + top > s.dim(2) || w + left > s.dim(3)) {
      throw site.fail(
          Message.OUT_OF_RANGE,
          null,
          site.prefix(),
          "the window " + h + "x" + w + " at (" + top + ", " + left + ")",
          "inside the input's " + s.dim(2) + "x" + s.dim(3),
          site.x().describe());
    }
    List<Integer> out = new ArrayList<>(s.dims());
    out.set(2, h);
    out.set(3, w);
    return Inferred.of(new TShape(out));
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // copies only
  }

  @Override
  public NodeCall call(CallSite site) {
    Args.Chain c =
        cropLike
            ? Args.chain(CropOp.class, "likeSecond")
            : Args.chain(CropOp.class, "window", i(height), i(width));
    c = center ? c.then("centered") : c.when(y != 0 || x != 0, "at", i(y), i(x));
    return NodeCall.Builder.of("node", c.build(), cropLike ? new NodeCall.Inputs() : Args.x());
  }

  /** A window of {@code height} by {@code width} at the top left. */
  public static CropOp window(int height, int width) {
    return new CropOp(false, height, width, 0, 0, false);
  }

  /** A window of the second input's height and width, at the top left. */
  public static CropOp likeSecond() {
    return new CropOp(true, 0, 0, 0, 0, false);
  }

  /** This window at row {@code y}, column {@code x}. */
  public CropOp at(int y, int x) {
    return new CropOp(cropLike, height, width, y, x, false);
  }

  /** This window in the centre. */
  public CropOp centered() {
    return new CropOp(cropLike, height, width, 0, 0, true);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(
        "Crop",
        scope.node(),
        Attrs.of(
            "num_args",
            inputs.size(),
            "offset",
            "(" + y + ", " + x + ")",
            "h_w",
            "(" + height + ", " + width + ")",
            "center_crop",
            center),
        null,
        inputs);
  }

  /** How the operator is read from a symbol file (it has no annotation). */
  static final Unit UNIT = Unit.of().file("Crop", List.of(), CropOp::crop);

  static Mapped crop(FileAttrs a) {
    int n = a.integer("num_args", 1);
    if (n != 1 && n != 2) {
      throw a.unsupported("num_args", "Crop takes 1 or 2 inputs");
    }
    List<Integer> hw = a.tuple("h_w", List.of(0, 0));
    List<Integer> offset = a.tuple("offset", List.of(0, 0));
    if (hw.size() != 2 || offset.size() != 2) {
      throw a.unsupported(hw.size() != 2 ? "h_w" : "offset", "two values, (y, x)");
    }
    boolean center = a.bool("center_crop", false);
    CropOp op = new CropOp(n == 2, hw.get(0), hw.get(1), offset.get(0), offset.get(1), center);
    return Mapped.data(op, n);
  }
}
