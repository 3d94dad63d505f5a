package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.PositionalEmbedding;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
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
 * A learned positional embedding ({@code @PositionalEmbedding}): {@code <node>_weight} {@code
 * [steps, width]} added to every example of a sequence {@code [N, steps', width]}, row {@code t} to
 * step {@code t}, over MXNet's {@code broadcast_add}; a sequence of fewer steps ({@code anyLength})
 * takes the first rows ({@code slice_like}). Generated code writes {@code
 * PositionalEmbeddingOp.steps(16).width(64)}.
 *
 * <p>At compile time: {@code @PositionalEmbedding}: a learned table {@code [steps, width]} added to
 * a sequence, step by step, over MXNet's {@code broadcast_add} (runtime {@code
 * PositionalEmbeddingOp}).
 *
 * @param steps the table's positions
 */
public record PositionalEmbeddingOp(int steps, int width, boolean sliced) implements LayerOp {
  static final OpReader<PositionalEmbedding> READER =
      OpReader.of(PositionalEmbedding.class, p -> steps(p.steps()), "steps");

  @Override
  public String annotation() {
    return "PositionalEmbedding";
  }

  @Override
  public String mxnetOp() {
    return "broadcast_add";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.positive("steps", steps);
  }

  /** The input's shape; weight {@code [steps, width]}; the input has at most {@code steps}. */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    if (s.rank() != 3) {
      String hint =
          s.rank() == 4 && s.dim(1) > 0 && s.dim(2) > 0 && s.dim(3) > 0
              ? "; a [N, C, H, W] image of patches is a sequence after @Reshape(shape = {BATCH, "
                  + s.dim(1)
                  + ", "
                  + s.dim(2) * s.dim(3)
                  + "}) and @Transpose(axes = {0, 2, 1})"
              : "";
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          "@PositionalEmbedding",
          "3",
          "[N, steps, width]",
          site.x().describe(),
          hint);
    }
    int width = s.dim(2);
    if (width < 0) {
      throw site.fail(
          Message.UNKNOWN_CHANNELS,
          null,
          site.where(),
          "@PositionalEmbedding",
          2,
          "the width",
          site.x().describe());
    }
    if (s.dim(1) > steps) {
      throw site.fail(
          Message.POSITION_STEPS,
          "steps",
          site.prefix(),
          steps,
          site.x().describe(),
          s.dim(1),
          s.dim(1));
    }
    return new Inferred(
        s, List.of(site.param(ParamRole.WEIGHT, TShape.of(steps, width))), List.of());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return out.perExample(); // one addition per value
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node",
        chain(PositionalEmbeddingOp.class, "steps", i(steps))
            .then("width", i(site.shape().dim(2)))
            .when(site.shape().dim(1) != steps, "anyLength")
            .build(),
        x());
  }

  /** A table of {@code steps} positions; give its width next. */
  public static PositionalEmbeddingOp steps(int steps) {
    return new PositionalEmbeddingOp(steps, 1, false);
  }

  /** This table, {@code width} wide. */
  public PositionalEmbeddingOp width(int width) {
    return new PositionalEmbeddingOp(steps, width, sliced);
  }

  /** This table, for sequences of up to {@link #steps()} steps. */
  public PositionalEmbeddingOp anyLength() {
    return new PositionalEmbeddingOp(steps, width, true);
  }

  /**
   * The table, reshaped to {@code [1, steps, width]} and sliced to the sequence's steps when {@code
   * sliced} (MXNet fails the pass of a longer sequence, naming the node), added to the input.
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym x = inputs.get(0);
    String n = scope.node();
    Sym table =
        scope.op(
            "Reshape",
            n + "_table",
            Attrs.of("shape", Attrs.tuple(1, steps, width)),
            List.of("data"),
            List.of(scope.param(ParamRole.WEIGHT, TShape.of(steps, width))));
    if (sliced) {
      table =
          scope.op(
              "slice_like",
              n + "_positions",
              Attrs.of("axes", Attrs.tuple(1)),
              List.of("data", "shape_like"),
              List.of(table, x));
    }
    return scope.op("broadcast_add", n, Attrs.of(), List.of("lhs", "rhs"), List.of(x, table));
  }

  /** How the layer is read: its annotation. */
  static final Unit UNIT = Unit.of(READER);
}
