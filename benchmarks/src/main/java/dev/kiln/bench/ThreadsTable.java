package dev.kiln.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The {@code THREADS} table: steps per second of each workload, batch size and implementation at
 * each OpenMP thread count, and each count's ratio against one thread, taken round by round (a
 * round runs every count once, back to back) with median and range over rounds; then the process
 * CPU time a step took, which shows threads that spin or wait for a core.
 */
final class ThreadsTable {
  private ThreadsTable() {}

  /** The counts THREADS compares on {@code cores} processors: 1, 2 and all of them, each once. */
  static List<Integer> counts(int cores) {
    return List.copyOf(new TreeSet<>(List.of(1, 2, Math.max(1, cores))));
  }

  /**
   * One timed run at a thread count.
   *
   * @param sample the run ({@code rep} is its round)
   * @param waitSeconds the time its threads spent runnable but waiting for a core
   */
  record Run(Sample sample, double waitSeconds) {}

  /** What a row is about. */
  private record Row(Workload workload, int batch, Impl impl) {}

  /**
   * The table of {@code samples}, measured at the thread counts of {@code byCount} (its keys; a
   * sample's {@code rep} is its round).
   */
  static String format(Map<Integer, List<Run>> byCount) {
    List<Integer> counts = new ArrayList<>(new TreeSet<>(byCount.keySet()));
    Map<Row, Map<Integer, Map<Integer, Run>>> rows =
        new TreeMap<>(
            java.util.Comparator.comparing((Row r) -> r.workload().ordinal())
                .thenComparingInt(Row::batch)
                .thenComparing(r -> r.impl().ordinal()));
    byCount.forEach(
        (count, runs) -> {
          for (Run run : runs) {
            Sample s = run.sample();
            rows.computeIfAbsent(new Row(s.workload(), s.batch(), s.impl()), k -> new TreeMap<>())
                .computeIfAbsent(count, k -> new TreeMap<>())
                .put(s.rep(), run);
          }
        });
    StringBuilder head = new StringBuilder("| workload | batch | implementation |");
    StringBuilder rule = new StringBuilder("|---|---:|---|");
    for (int c : counts) {
      head.append(' ').append(threads(c)).append(", steps/s |");
      rule.append("---:|");
    }
    int base = counts.get(0);
    for (int c : counts.subList(1, counts.size())) {
      head.append(' ').append(c).append(" / ").append(base).append(" |");
      rule.append("---:|");
    }
    for (int c : counts) {
      head.append(" CPU ms a step, ").append(threads(c)).append(" |");
      rule.append("---:|");
    }
    for (int c : counts) {
      head.append(" wait for a core, ms a step, ").append(threads(c)).append(" |");
      rule.append("---:|");
    }
    StringBuilder out = new StringBuilder().append(head).append('\n').append(rule).append('\n');
    rows.forEach(
        (row, at) -> {
          out.append(
              String.format(
                  Locale.ROOT,
                  "| %s | %d | %s |",
                  row.workload().label(),
                  row.batch(),
                  row.impl().label()));
          for (int c : counts) {
            out.append(' ')
                .append(
                    ThroughputTable.cell(
                        values(at.get(c), r -> r.sample().stepsPerSecond()), "%.0f"))
                .append(" |");
          }
          for (int c : counts.subList(1, counts.size())) {
            List<Double> ratios = new ArrayList<>();
            Map<Integer, Run> top = at.getOrDefault(c, Map.of());
            Map<Integer, Run> bottom = at.getOrDefault(base, Map.of());
            top.forEach(
                (round, r) -> {
                  Run b = bottom.get(round);
                  if (b != null) {
                    ratios.add(r.sample().stepsPerSecond() / b.sample().stepsPerSecond());
                  }
                });
            out.append(' ').append(ThroughputTable.cell(ratios, "%.2f")).append(" |");
          }
          for (int c : counts) {
            out.append(' ')
                .append(
                    ThroughputTable.cell(
                        values(at.get(c), r -> r.sample().cpuSeconds() * 1e3 / r.sample().steps()),
                        "%.2f"))
                .append(" |");
          }
          for (int c : counts) {
            out.append(' ')
                .append(
                    ThroughputTable.cell(
                        values(at.get(c), r -> r.waitSeconds() * 1e3 / r.sample().steps()), "%.2f"))
                .append(" |");
          }
          out.append('\n');
        });
    return out.toString();
  }

  private static String threads(int count) {
    return count + (count == 1 ? " thread" : " threads");
  }

  private static List<Double> values(
      Map<Integer, Run> runs, java.util.function.ToDoubleFunction<Run> f) {
    return runs == null
        ? List.of()
        : runs.values().stream()
            .map(r -> f.applyAsDouble(r))
            .filter(v -> !Double.isNaN(v) && v >= 0)
            .collect(Collectors.toList());
  }
}
