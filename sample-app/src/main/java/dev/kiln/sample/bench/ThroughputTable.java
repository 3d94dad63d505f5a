package dev.kiln.sample.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The throughput table: per batch size, the median steps per second of each implementation (with
 * the range over repetitions), the ratios Kiln/floor and Kiln/DJL of the medians, and Kiln/floor of
 * the best runs (the least disturbed by other processes on a shared machine).
 */
final class ThroughputTable {
  private ThroughputTable() {}

  /** Formats {@code samples} as a Markdown table, one row per batch size, ascending. */
  static String format(List<Sample> samples) {
    Map<Integer, Map<Impl, List<Double>>> byBatch = new TreeMap<>();
    for (Sample s : samples) {
      byBatch
          .computeIfAbsent(s.batch(), b -> new TreeMap<>())
          .computeIfAbsent(s.impl(), i -> new ArrayList<>())
          .add(s.stepsPerSecond());
    }
    StringBuilder out = new StringBuilder();
    out.append(
        "| batch | floor steps/s | kiln steps/s | djl steps/s | kiln+loss steps/s "
            + "| kiln/floor | kiln/djl | kiln+loss/floor | kiln/floor, best runs | runs |\n");
    out.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (Map.Entry<Integer, Map<Impl, List<Double>>> row : byBatch.entrySet()) {
      Map<Impl, List<Double>> cells = row.getValue();
      out.append("| ").append(row.getKey());
      for (Impl impl : Impl.values()) {
        out.append(" | ").append(cell(cells.get(impl)));
      }
      out.append(" | ").append(ratio(cells.get(Impl.KILN), cells.get(Impl.FLOOR)));
      out.append(" | ").append(ratio(cells.get(Impl.KILN), cells.get(Impl.DJL)));
      out.append(" | ").append(ratio(cells.get(Impl.KILN_LOSS), cells.get(Impl.FLOOR)));
      out.append(" | ").append(bestRatio(cells.get(Impl.KILN), cells.get(Impl.FLOOR)));
      out.append(" | ")
          .append(
              cells.values().stream()
                  .map(l -> Integer.toString(l.size()))
                  .distinct()
                  .collect(Collectors.joining("/")));
      out.append(" |\n");
    }
    return out.toString();
  }

  /** {@code median (min–max)}, or a dash when there is no measurement. */
  static String cell(List<Double> values) {
    if (values == null || values.isEmpty()) {
      return "–";
    }
    return String.format(
        Locale.ROOT,
        "%.0f (%.0f–%.0f)",
        Stats.median(values),
        Stats.min(values),
        Stats.max(values));
  }

  /** The ratio of the largest values to two decimals, or a dash when either side is missing. */
  static String bestRatio(List<Double> top, List<Double> bottom) {
    if (top == null || bottom == null || top.isEmpty() || bottom.isEmpty()) {
      return "–";
    }
    return String.format(Locale.ROOT, "%.2f", Stats.max(top) / Stats.max(bottom));
  }

  /** The ratio of the medians to two decimals, or a dash when either side is missing. */
  static String ratio(List<Double> top, List<Double> bottom) {
    if (top == null || bottom == null || top.isEmpty() || bottom.isEmpty()) {
      return "–";
    }
    return String.format(Locale.ROOT, "%.2f", Stats.median(top) / Stats.median(bottom));
  }
}
