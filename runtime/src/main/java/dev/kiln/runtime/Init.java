package dev.kiln.runtime;

import dev.kiln.runtime.graph.ParamSpec;
import java.util.SplittableRandom;

/**
 * How a model's weights are initialised. Biases always start at zero. Initialisation runs in
 * Java from a seeded generator, so the same seed gives the same parameters on every machine.
 */
@FunctionalInterface
public interface Init {
  /** Fills {@code values} (row-major, {@code spec.shape()}) for weight {@code spec}. */
  void fill(ParamSpec spec, float[] values, SplittableRandom rng);

  /**
   * Xavier/Glorot uniform, as MXNet's default {@code Xavier()}: {@code U(-s, s)} with {@code s =
   * sqrt(3 / ((fanIn + fanOut) / 2))}, where for a weight of shape {@code [out, in, k...]}
   * {@code fanIn = in·k...} and {@code fanOut = out·k...}.
   */
  static Init xavier() {
    return (spec, values, rng) -> {
      int[] d = spec.shape().dims();
      double receptive = 1;
      for (int i = 2; i < d.length; i++) {
        receptive *= d[i];
      }
      double fanOut = d[0] * receptive;
      double fanIn = d.length > 1 ? d[1] * receptive : d[0];
      double scale = Math.sqrt(3.0 / ((fanIn + fanOut) / 2.0));
      for (int i = 0; i < values.length; i++) {
        values[i] = (float) ((rng.nextDouble() * 2 - 1) * scale);
      }
    };
  }

  /** Uniform on {@code [-scale, scale)}. */
  static Init uniform(float scale) {
    return (spec, values, rng) -> {
      for (int i = 0; i < values.length; i++) {
        values[i] = (float) ((rng.nextDouble() * 2 - 1) * scale);
      }
    };
  }

  /** Every weight equal to {@code value}. */
  static Init constant(float value) {
    return (spec, values, rng) -> java.util.Arrays.fill(values, value);
  }
}
