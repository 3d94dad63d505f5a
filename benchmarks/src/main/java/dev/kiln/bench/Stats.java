package dev.kiln.bench;

import java.util.Arrays;
import java.util.Collection;

/** Order statistics of repeated measurements. */
final class Stats {
  private Stats() {}

  /** The median; the mean of the two middle values for an even count. */
  static double median(Collection<Double> values) {
    double[] v = sorted(values);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /** The smallest value. */
  static double min(Collection<Double> values) {
    return sorted(values)[0];
  }

  /** The largest value. */
  static double max(Collection<Double> values) {
    double[] v = sorted(values);
    return v[v.length - 1];
  }

  private static double[] sorted(Collection<Double> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(v);
    return v;
  }
}
