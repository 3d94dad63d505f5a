package dev.kiln.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The profile table: per variant of the training loop and batch size, the best and the median
 * wall-clock time per step, the median process CPU time per step (all threads), and the median CPU
 * time per step of the Java thread that drives MXNet, with how much more that is than the first
 * variant's. CPU times are much less sensitive than wall-clock time to other processes on a busy
 * machine.
 */
final class ProfileTable {
  private ProfileTable() {}

  /**
   * Formats microseconds per step keyed by variant (the first is the baseline) and batch size:
   * wall-clock, process CPU and driving-thread CPU, as a Markdown table.
   */
  static String format(
      Map<String, Map<Integer, List<Double>>> wallMicros,
      Map<String, Map<Integer, List<Double>>> cpuMicros,
      Map<String, Map<Integer, List<Double>>> driverMicros) {
    TreeSet<Integer> batches = new TreeSet<>();
    wallMicros.values().forEach(m -> batches.addAll(m.keySet()));
    StringBuilder s = new StringBuilder("| variant");
    for (int b : batches) {
      s.append(" | @")
          .append(b)
          .append(
              " wall µs/step best / median | process CPU | driver " + "thread CPU (+ over first)");
    }
    s.append(" |\n|---").append("|---:|---:|---:".repeat(batches.size())).append("|\n");
    Map<Integer, List<Double>> base =
        driverMicros.isEmpty() ? Map.of() : driverMicros.values().iterator().next();
    for (Map.Entry<String, Map<Integer, List<Double>>> row : wallMicros.entrySet()) {
      s.append("| ").append(row.getKey());
      for (int b : batches) {
        List<Double> w = row.getValue().get(b);
        List<Double> c = cpuMicros.getOrDefault(row.getKey(), Map.of()).get(b);
        List<Double> d = driverMicros.getOrDefault(row.getKey(), Map.of()).get(b);
        List<Double> ref = base.get(b);
        s.append(
            present(w)
                ? String.format(Locale.ROOT, " | %.0f / %.0f", Stats.min(w), Stats.median(w))
                : " | –");
        s.append(present(c) ? String.format(Locale.ROOT, " | %.0f", Stats.median(c)) : " | –");
        if (!present(d)) {
          s.append(" | –");
        } else {
          s.append(String.format(Locale.ROOT, " | %.0f", Stats.median(d)));
          if (present(ref)) {
            s.append(String.format(Locale.ROOT, " (%+.0f)", Stats.median(d) - Stats.median(ref)));
          }
        }
      }
      s.append(" |\n");
    }
    return s.toString();
  }

  private static boolean present(List<Double> values) {
    return values != null && !values.isEmpty();
  }
}
