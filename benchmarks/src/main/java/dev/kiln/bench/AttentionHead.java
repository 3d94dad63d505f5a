package dev.kiln.bench;

import dev.kiln.annotations.Layer;
import dev.kiln.annotations.Param;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;

/**
 * One head of scaled dot-product self-attention written by hand with {@code Sym} operations, as a
 * Kiln user would without {@code @MultiHeadAttention}: {@code softmax(q kᵀ / sqrt(size)) v}
 * projected back to the width. Several heads side by side, summed by an {@code @Add}, are
 * multi-head attention (the sum of the heads' projections is the projection of their
 * concatenation). The benchmark's {@link VitHandBlock} uses four of them.
 */
@Layer(
    input = {"batch", "steps", "width"},
    output = {"batch", "steps", "width"},
    forward = AttentionHead.Forward.class)
public @interface AttentionHead {
  /** Each query's, key's and value's size. */
  int size();

  /** The forward pass. */
  final class Forward {
    private Forward() {}

    /** One head over {@code x}. */
    public static Sym apply(
        Sym x,
        @Param(shape = {"width", "size"}) Sym query,
        @Param(
                shape = {"size"},
                init = ParamInit.ZEROS)
            Sym queryBias,
        @Param(shape = {"width", "size"}) Sym key,
        @Param(
                shape = {"size"},
                init = ParamInit.ZEROS)
            Sym keyBias,
        @Param(shape = {"width", "size"}) Sym value,
        @Param(
                shape = {"size"},
                init = ParamInit.ZEROS)
            Sym valueBias,
        @Param(shape = {"size", "width"}) Sym output,
        int size) {
      Sym q = x.dot(query).add(queryBias);
      Sym k = x.dot(key).add(keyBias);
      Sym v = x.dot(value).add(valueBias);
      Sym weights = q.batchDot(k, true).scale((float) (1 / Math.sqrt(size))).softmax(-1);
      return weights.batchDot(v, false).dot(output);
    }
  }
}
