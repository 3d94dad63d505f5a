package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * Pooling over every position of each channel ({@code @GlobalAvgPool}, {@code @GlobalMaxPool}):
 * MXNet's {@code Pooling} with {@code global_pool = True}, {@code [N, C, ...]} to {@code [N, C, 1,
 * ...]}. Generated code writes {@code GlobalPoolSpec.avg()} or {@code GlobalPoolSpec.max()}.
 *
 * @param type {@code avg} or {@code max}, MXNet's {@code pool_type}
 */
public record GlobalPoolSpec(String type) implements LayerOp {
  /** The mean of each channel. */
  public static GlobalPoolSpec avg() {
    return new GlobalPoolSpec("avg");
  }

  /** The largest value of each channel. */
  public static GlobalPoolSpec max() {
    return new GlobalPoolSpec("max");
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(
        "Pooling",
        Attrs.of("pool_type", type, "global_pool", true, "pooling_convention", "valid"),
        inputs.get(0));
  }
}
