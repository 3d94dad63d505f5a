package dev.kiln.differential;

import java.util.Locale;

/**
 * Element-wise comparisons of float arrays that explain the first mismatch: where, both values, and
 * how many elements differ.
 */
final class Compare {
  private Compare() {}

  /** Null when {@code actual} equals {@code expected} bit for bit (NaN equal to NaN). */
  static String exact(float[] expected, float[] actual) {
    if (expected.length != actual.length) {
      return "lengths differ: " + expected.length + " and " + actual.length;
    }
    int bad = 0;
    int first = -1;
    for (int i = 0; i < expected.length; i++) {
      if (Float.floatToIntBits(expected[i]) != Float.floatToIntBits(actual[i])) {
        bad++;
        first = first < 0 ? i : first;
      }
    }
    return bad == 0
        ? null
        : String.format(
            Locale.ROOT,
            "%d of %d values differ; first at [%d]: %s, then %s",
            bad,
            expected.length,
            first,
            expected[first],
            actual[first]);
  }

  /**
   * Null when every pair is within {@code rtol} of the larger magnitude plus {@code atol} times the
   * largest magnitude in {@code expected} (so rounding in a sum of large terms that cancel is not a
   * mismatch), plus {@code 1e-6}.
   */
  static String close(float[] expected, float[] actual, double rtol, double atol) {
    return close(expected, actual, rtol, atol, maxAbs(expected));
  }

  /** The largest magnitude in {@code values}. */
  static double maxAbs(float[] values) {
    double scale = 0;
    for (float v : values) {
      scale = Math.max(scale, Math.abs(v));
    }
    return scale;
  }

  /**
   * As {@link #close(float[], float[], double, double)} with {@code atol} times {@code scale}
   * instead of the largest magnitude in {@code expected}: the largest of several related arrays,
   * e.g. every gradient of a model, so that a gradient that is 0 up to rounding (a bias before a
   * batch norm) is compared at the scale of the rounding that made it.
   */
  static String close(float[] expected, float[] actual, double rtol, double atol, double scale) {
    if (expected.length != actual.length) {
      return "lengths differ: " + expected.length + " and " + actual.length;
    }
    int bad = 0;
    int worst = -1;
    double worstExcess = 0;
    for (int i = 0; i < expected.length; i++) {
      double a = expected[i];
      double b = actual[i];
      double allowed = rtol * Math.max(Math.abs(a), Math.abs(b)) + atol * scale + 1e-6;
      double diff = Math.abs(a - b);
      if (!(diff <= allowed)) {
        bad++;
        double excess = Double.isNaN(diff) ? Double.POSITIVE_INFINITY : diff / allowed;
        if (worst < 0 || excess > worstExcess) {
          worst = i;
          worstExcess = excess;
        }
      }
    }
    return bad == 0
        ? null
        : String.format(
            Locale.ROOT,
            "%d of %d values differ beyond rtol %.0e + atol %.0e x scale %.3g; worst at "
                + "[%d]: expected %s, got %s",
            bad,
            expected.length,
            rtol,
            atol,
            scale,
            worst,
            expected[worst],
            actual[worst]);
  }

  /**
   * As {@link #close(float[], float[], double, double, double)}, but a few values may miss the
   * tolerance by up to {@code factor} times: at most {@code fraction} of them (at least one). For
   * two implementations of the same operators, where an ill-conditioned step (a layer norm of a row
   * that padding made constant divides rounding noise by {@code sqrt(eps)}) can magnify a last-bit
   * difference in a handful of values, while a real defect changes many values or changes them by
   * far more.
   */
  static String closeMostly(
      float[] expected,
      float[] actual,
      double rtol,
      double atol,
      double scale,
      double fraction,
      double factor) {
    if (close(expected, actual, rtol, atol, scale) == null) {
      return null;
    }
    String loose = close(expected, actual, rtol * factor, atol * factor, scale);
    if (loose != null) {
      return loose + " (even at " + factor + " times the tolerance)";
    }
    int bad = 0;
    for (int i = 0; i < expected.length; i++) {
      double allowed =
          rtol * Math.max(Math.abs(expected[i]), Math.abs(actual[i])) + atol * scale + 1e-6;
      if (!(Math.abs(expected[i] - actual[i]) <= allowed)) {
        bad++;
      }
    }
    if (bad <= Math.max(1, (int) (fraction * expected.length))) {
      return null;
    }
    return close(expected, actual, rtol, atol, scale)
        + " (more than "
        + fraction * 100
        + "% of the values)";
  }

  /** Null when every value is finite; else how many are not and the first. */
  static String finite(float[] values) {
    int bad = 0;
    int first = -1;
    for (int i = 0; i < values.length; i++) {
      if (!Float.isFinite(values[i])) {
        bad++;
        first = first < 0 ? i : first;
      }
    }
    return bad == 0
        ? null
        : bad
            + " of "
            + values.length
            + " values are not finite; first at ["
            + first
            + "]: "
            + values[first];
  }
}
