package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.PositionalEmbedding;
import dev.kiln.names.ParamRole;
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
 * {@code @PositionalEmbedding}: a learned table {@code [steps, width]} added to a sequence, step by
 * step, over MXNet's {@code broadcast_add} (runtime {@code PositionalEmbeddingSpec}).
 *
 * @param steps the table's positions
 */
record PositionalEmbeddingOp(int steps) implements Op {
  static final OpReader<PositionalEmbedding> READER =
      OpReader.of(PositionalEmbedding.class, p -> new PositionalEmbeddingOp(p.steps()), "steps");

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
        chain("PositionalEmbeddingSpec", "steps", i(steps))
            .then("width", i(site.shape().dim(2)))
            .when(site.shape().dim(1) != steps, "anyLength")
            .build(),
        x());
  }
}
