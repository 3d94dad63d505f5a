package dev.kiln.runtime;

import dev.kiln.runtime.graph.ParamSpec;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * How a model's weights are initialised. Biases always start at zero. Initialisation runs in Java
 * from a seeded generator, so the same seed gives the same parameters on every machine.
 *
 * <p>The built-in initialisers follow MXNet's ({@code python/mxnet/initializer.py}). Fans are those
 * of MXNet's layout: for a weight of shape {@code [out, in, k...]}, {@code fanIn = in·k...} and
 * {@code fanOut = out·k...}; a one-dimensional weight {@code [n]} has both fans {@code n}. Normal
 * samples come from the Box–Muller transform over the generator's doubles computed with {@link
 * StrictMath}, so they too are identical on every JVM.
 *
 * <pre>{@code
 * Init.xavier()                                 // MXNet's default Xavier(): uniform, avg, 3
 * Init.xavier(Init.Distribution.NORMAL, Init.Factor.IN, 2f)
 * Init.he()                                     // normal, std sqrt(2 / fanIn)
 * Init.normal(0.01f)   Init.uniform(0.07f)   Init.constant(0.5f)   Init.zeros()
 * }</pre>
 */
@FunctionalInterface
public interface Init {
  /** Fills {@code values} (row-major, {@code spec.shape()}) for weight {@code spec}. */
  void fill(ParamSpec spec, float[] values, SplittableRandom rng);

  /** The distribution Xavier-style initialisers draw from (MXNet's {@code rnd_type}). */
  enum Distribution {
    /** Uniform on {@code [-scale, scale)}. */
    UNIFORM,
    /** Normal with mean 0 and standard deviation {@code scale} (MXNet's "gaussian"). */
    NORMAL
  }

  /** Which fan Xavier-style initialisers scale by (MXNet's {@code factor_type}). */
  enum Factor {
    /** {@code (fanIn + fanOut) / 2}. */
    AVG,
    /** {@code fanIn}. */
    IN,
    /** {@code fanOut}. */
    OUT
  }

  /**
   * Xavier/Glorot uniform, as MXNet's default {@code Xavier()}: {@code U(-s, s)} with {@code s =
   * sqrt(3 / ((fanIn + fanOut) / 2))}.
   */
  static Init xavier() {
    return xavier(Distribution.UNIFORM, Factor.AVG, 3f);
  }

  /**
   * Xavier normal as MXNet's {@code Xavier(rnd_type="gaussian")}: standard deviation {@code sqrt(3
   * / ((fanIn + fanOut) / 2))}. (Glorot's own normal initialiser, standard deviation {@code sqrt(2
   * / (fanIn + fanOut))}, is {@code xavier(NORMAL, AVG, 1)}.)
   */
  static Init xavierNormal() {
    return xavier(Distribution.NORMAL, Factor.AVG, 3f);
  }

  /**
   * MXNet's {@code Xavier(rnd_type, factor_type, magnitude)}: scale {@code s = sqrt(magnitude /
   * factor)} where {@code factor} is the chosen fan; uniform draws from {@code U(-s, s)}, normal
   * from {@code N(0, s²)}.
   */
  static Init xavier(Distribution distribution, Factor factor, float magnitude) {
    if (distribution == null || factor == null) {
      throw new IllegalArgumentException(
          "Xavier needs a distribution and a factor, got " + distribution + " and " + factor);
    }
    if (!(magnitude > 0) || !Float.isFinite(magnitude)) {
      throw new IllegalArgumentException(
          "Xavier magnitude must be positive and finite, got " + magnitude);
    }
    return (spec, values, rng) -> {
      int[] d = spec.shape().dims();
      double receptive = 1;
      for (int i = 2; i < d.length; i++) {
        receptive *= d[i];
      }
      double fanOut = d[0] * receptive;
      double fanIn = d.length > 1 ? d[1] * receptive : d[0];
      double f =
          switch (factor) {
            case AVG -> (fanIn + fanOut) / 2.0;
            case IN -> fanIn;
            case OUT -> fanOut;
          };
      double scale = Math.sqrt(magnitude / f);
      if (distribution == Distribution.UNIFORM) {
        uniformFill(values, scale, rng);
      } else {
        normalFill(values, scale, rng);
      }
    };
  }

  /**
   * He/MSRA initialisation for ReLU layers, as MXNet's {@code MSRAPrelu(factor_type="in",
   * slope=0)}: normal with standard deviation {@code sqrt(2 / fanIn)}.
   */
  static Init he() {
    return msraPrelu(Factor.IN, 0f);
  }

  /**
   * MXNet's {@code MSRAPrelu(factor_type, slope)}: Xavier normal with magnitude {@code 2 / (1 +
   * slope²)}, for layers followed by a PReLU of initial slope {@code slope}.
   */
  static Init msraPrelu(Factor factor, float slope) {
    if (!Float.isFinite(slope)) {
      throw new IllegalArgumentException("PReLU slope must be finite, got " + slope);
    }
    return xavier(Distribution.NORMAL, factor, 2f / (1 + slope * slope));
  }

  /** Normal with mean 0 and standard deviation {@code sigma} (MXNet's {@code Normal}). */
  static Init normal(float sigma) {
    if (!(sigma > 0) || !Float.isFinite(sigma)) {
      throw new IllegalArgumentException("normal sigma must be positive and finite, got " + sigma);
    }
    return (spec, values, rng) -> normalFill(values, sigma, rng);
  }

  /** Uniform on {@code [-scale, scale)} (MXNet's {@code Uniform}). */
  static Init uniform(float scale) {
    if (!(scale > 0) || !Float.isFinite(scale)) {
      throw new IllegalArgumentException("uniform scale must be positive and finite, got " + scale);
    }
    return (spec, values, rng) -> uniformFill(values, scale, rng);
  }

  /** Every weight equal to {@code value}. */
  static Init constant(float value) {
    if (!Float.isFinite(value)) {
      throw new IllegalArgumentException("constant initial value must be finite, got " + value);
    }
    return (spec, values, rng) -> Arrays.fill(values, value);
  }

  /** Every weight zero. */
  static Init zeros() {
    return (spec, values, rng) -> Arrays.fill(values, 0f);
  }

  /** Fills {@code values} from {@code U(-scale, scale)}. */
  private static void uniformFill(float[] values, double scale, SplittableRandom rng) {
    for (int i = 0; i < values.length; i++) {
      values[i] = (float) ((rng.nextDouble() * 2 - 1) * scale);
    }
  }

  /** Fills {@code values} from {@code N(0, sigma²)}, two samples per Box–Muller pair. */
  private static void normalFill(float[] values, double sigma, SplittableRandom rng) {
    for (int i = 0; i < values.length; i += 2) {
      double radius = StrictMath.sqrt(-2 * StrictMath.log(1 - rng.nextDouble()));
      double angle = 2 * StrictMath.PI * rng.nextDouble();
      values[i] = (float) (sigma * radius * StrictMath.cos(angle));
      if (i + 1 < values.length) {
        values[i + 1] = (float) (sigma * radius * StrictMath.sin(angle));
      }
    }
  }
}
