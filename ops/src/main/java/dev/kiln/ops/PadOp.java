package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.d;
import static dev.kiln.ops.Args.ints;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.Requirement;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.SizeExpr;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * Padding of the spatial axes of {@code [N, C, H, W]} or {@code [N, C, D, H, W]}: MXNet's {@code
 * Pad}, with a constant, the edge value repeated, or the values mirrored about the edge. Only
 * imports make it (ONNX {@code Pad}); no annotation declares it. Generated code writes {@code
 * PadOp.constant(0.0, 0, 0, 0, 0, 1, 1, 2, 2)} or {@code PadOp.reflect(...)}, the widths as MXNet's
 * {@code pad_width}: before and after of each axis in turn.
 *
 * @param mode how the new values are made
 * @param widths before and after of each axis in turn, zero for the first two
 * @param value the constant of {@code CONSTANT} padding, else 0
 */
public record PadOp(Mode mode, List<Integer> widths, double value) implements LayerOp {
  /** How the new values are made, MXNet's {@code mode}. */
  public enum Mode {
    /** A constant. */
    CONSTANT("constant"),
    /** The value at the edge, repeated. */
    EDGE("edge"),
    /** The values mirrored about the edge (the edge itself not repeated). */
    REFLECT("reflect");

    final String mxnet;

    Mode(String mxnet) {
      this.mxnet = mxnet;
    }
  }

  /** Copies the widths. */
  public PadOp {
    widths = List.copyOf(widths);
  }

  @Override
  public String annotation() {
    return "Pad";
  }

  @Override
  public String mxnetOp() {
    return "Pad";
  }

  @Override
  public int arity() {
    return 1;
  }

  /** Widths are not negative, the value is a number. */
  @Override
  public void checkAttributes(AttributeSite site) {
    for (int w : widths) {
      if (w < 0) {
        throw site.fail(
            Message.OUT_OF_RANGE, null, site.prefix(), "each width", "0 or more (no cropping)", w);
      }
    }
    if (!Double.isFinite(value)) {
      throw site.fail(Message.OUT_OF_RANGE, null, site.prefix(), "the value", "finite", value);
    }
  }

  /** Free dimensions pass through or follow the rule's arithmetic as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /**
   * MXNet {@code PadShape}: rank 4 or 5, two widths per axis, none on the batch and channel axes,
   * each spatial axis grown by its widths; a mirror narrower than its axis.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    if (s.rank() != 4 && s.rank() != 5) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          "Pad",
          "4 or 5",
          "[N, C, H, W] or [N, C, D, H, W]",
          site.x().describe(),
          "; MXNet pads images and volumes only");
    }
    if (widths.size() != 2 * s.rank()) {
      throw site.fail(
          Message.OUT_OF_RANGE,
          null,
          site.prefix(),
          "the widths " + widths,
          "two per axis of " + site.x().describe(),
          widths.size());
    }
    if (widths.get(0) != 0 || widths.get(1) != 0 || widths.get(2) != 0 || widths.get(3) != 0) {
      throw site.fail(
          Message.OUT_OF_RANGE,
          null,
          site.prefix(),
          "the widths of the batch and channel axes " + widths.subList(0, 4),
          "zero (MXNet pads spatial axes only)",
          widths.subList(0, 4));
    }
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < s.rank(); k++) {
      int d = s.dim(k);
      int grow = widths.get(2 * k) + widths.get(2 * k + 1);
      if (k >= 2 && TShape.isFree(d)) {
        if (mode == Mode.REFLECT) {
          site.require(
              s.size(k),
              Requirement.Relation.AT_LEAST,
              SizeExpr.constant(Math.max(widths.get(2 * k), widths.get(2 * k + 1)) + 1L),
              "a reflection needs the axis longer than its width");
        }
        out.add(TShape.size(s.size(k).plus(grow)));
        continue;
      }
      if (k >= 2 && d < 0) {
        throw site.fail(
            Message.OUT_OF_RANGE,
            null,
            site.prefix(),
            "axis " + k + " of " + site.x().describe(),
            "a known size to pad",
            BroadcastOp.size(d));
      }
      if (mode == Mode.REFLECT
          && k >= 2
          && (widths.get(2 * k) >= d || widths.get(2 * k + 1) >= d)) {
        throw site.fail(
            Message.OUT_OF_RANGE,
            null,
            site.prefix(),
            "a reflect width of axis " + k + " of " + site.x().describe(),
            "less than its size " + d,
            Math.max(widths.get(2 * k), widths.get(2 * k + 1)));
      }
      out.add(k < 2 ? d : d + grow);
    }
    return Inferred.of(new TShape(out));
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // copies only
  }

  @Override
  public NodeCall call(CallSite site) {
    int[] w = widths.stream().mapToInt(Integer::intValue).toArray();
    Args.Chain c =
        mode == Mode.CONSTANT
            ? chain(PadOp.class, "constant", concat(d(value), ints(w)))
            : chain(PadOp.class, mode == Mode.EDGE ? "edge" : "reflect", ints(w));
    return NodeCall.Builder.of("node", c.build(), x());
  }

  private static NodeCall.Arg[] concat(NodeCall.Arg first, NodeCall.Arg[] rest) {
    NodeCall.Arg[] out = new NodeCall.Arg[rest.length + 1];
    out[0] = first;
    System.arraycopy(rest, 0, out, 1, rest.length);
    return out;
  }

  /** Padding with {@code value}, {@code widths} before and after of each axis in turn. */
  public static PadOp constant(double value, int... widths) {
    return new PadOp(Mode.CONSTANT, Window.of(widths), value);
  }

  /** Padding with the edge value repeated. */
  public static PadOp edge(int... widths) {
    return new PadOp(Mode.EDGE, Window.of(widths), 0);
  }

  /** Padding with the values mirrored about the edge. */
  public static PadOp reflect(int... widths) {
    return new PadOp(Mode.REFLECT, Window.of(widths), 0);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    int[] w = widths.stream().mapToInt(Integer::intValue).toArray();
    return scope.op(
        "Pad",
        Attrs.of("mode", mode.mxnet, "pad_width", Attrs.tuple(w), "constant_value", value),
        inputs.get(0));
  }

  /** Read only from imports: no annotation, no symbol-file operator. */
  static final Unit UNIT = Unit.of();
}
