package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.GlobalMaxPool;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code @GlobalAvgPool} or {@code @GlobalMaxPool}: MXNet's {@code Pooling} with {@code
 * global_pool}, average or max, over every position of each channel.
 *
 * @param max whether it takes the largest value rather than the mean
 */
record GlobalPoolOp(boolean max) implements Op {
  static final OpReader<GlobalAvgPool> AVG_READER =
      OpReader.of(GlobalAvgPool.class, g -> new GlobalPoolOp(false));

  static final OpReader<GlobalMaxPool> MAX_READER =
      OpReader.of(GlobalMaxPool.class, g -> new GlobalPoolOp(true));

  @Override
  public String annotation() {
    return max ? "GlobalMaxPool" : "GlobalAvgPool";
  }

  /** MXNet's {@code pool_type}, and the runtime spec's factory. */
  private String type() {
    return max ? "max" : "avg";
  }

  @Override
  public String mxnetOp() {
    return "Pooling(global " + type() + ")";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // No attributes.
  }

  /**
   * MXNet {@code PoolingShape} with {@code global_pool} (channels first): rank 3 to 5, every
   * dimension after the channels becomes 1.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    if (s.rank() < 3 || s.rank() > 5) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          "@" + annotation(),
          "3 to 5",
          "[N, C, ...]",
          site.x().describe(),
          "");
    }
    List<Integer> out = new ArrayList<>(List.of(s.dim(0), s.dim(1)));
    out.addAll(Collections.nCopies(s.rank() - 2, 1));
    return Inferred.of(new TShape(out));
  }

  /** One addition or comparison per input value. */
  @Override
  public long flops(List<TShape> in, TShape out) {
    return in.get(0).perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("node", Args.chain("GlobalPoolSpec", type()).build(), x());
  }
}
