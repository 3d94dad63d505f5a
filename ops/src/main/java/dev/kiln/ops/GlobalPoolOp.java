package dev.kiln.ops;

import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.GlobalMaxPool;
import dev.kiln.annotations.Sym;
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
import java.util.Collections;
import java.util.List;

/**
 * Pooling over every position of each channel ({@code @GlobalAvgPool}, {@code @GlobalMaxPool}):
 * MXNet's {@code Pooling} with {@code global_pool = True}, {@code [N, C, ...]} to {@code [N, C, 1,
 * ...]}. Generated code writes {@code GlobalPoolOp.avg()} or {@code GlobalPoolOp.max()}.
 *
 * <p>At compile time: {@code @GlobalAvgPool} or {@code @GlobalMaxPool}: MXNet's {@code Pooling}
 * with {@code global_pool}, average or max, over every position of each channel.
 *
 * @param type {@code max} for the largest value of each channel, {@code avg} for its mean (MXNet's
 *     {@code pool_type})
 */
public record GlobalPoolOp(String type) implements LayerOp {
  static final OpReader<GlobalAvgPool> AVG_READER = OpReader.of(GlobalAvgPool.class, g -> avg());

  static final OpReader<GlobalMaxPool> MAX_READER = OpReader.of(GlobalMaxPool.class, g -> max());

  @Override
  public String annotation() {
    return type.equals("max") ? "GlobalMaxPool" : "GlobalAvgPool";
  }

  @Override
  public String mxnetOp() {
    return "Pooling(global " + type + ")";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // No attributes.
  }

  /** Free dimensions pass through or follow the rule's arithmetic as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
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
    return NodeCall.Builder.of("node", Args.chain(GlobalPoolOp.class, type).build(), x());
  }

  /** The mean of each channel. */
  public static GlobalPoolOp avg() {
    return new GlobalPoolOp("avg");
  }

  /** The largest value of each channel. */
  public static GlobalPoolOp max() {
    return new GlobalPoolOp("max");
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(
        "Pooling",
        Attrs.of("pool_type", type, "global_pool", true, "pooling_convention", "valid"),
        inputs.get(0));
  }

  /** How the layer is read: its annotations. */
  static final Unit UNIT = Unit.of(AVG_READER, MAX_READER);
}
