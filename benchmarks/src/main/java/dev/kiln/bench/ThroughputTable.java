package dev.kiln.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleBiFunction;

/**
 * The throughput tables. Steps per second per workload, batch size and implementation (median and
 * range over rounds), then the ratios between implementations computed <em>round by round</em>
 * (each round runs every implementation back to back, so a ratio compares runs that saw the same
 * machine load) with their median and range, and what Kiln's gradient check costs a step.
 */
final class ThroughputTable {
  /** A ratio the table reports: {@code top} steps/s over {@code bottom} steps/s. */
  record Ratio(String name, Impl top, Impl bottom) {}

  /** Kiln's step over the kernels' limit without copy-in, the ratio issues 25 and 38 set. */
  private static final Ratio KERNELS =
      new Ratio("kiln/fwd+bwd no copy-in", Impl.KILN, Impl.FWD_BWD_NO_COPY);

  /** The ratios reported, in column order. */
  static final List<Ratio> RATIOS =
      List.of(
          new Ratio("kiln/floor", Impl.KILN, Impl.FLOOR),
          new Ratio("kiln/fwd+bwd only", Impl.KILN, Impl.FWD_BWD),
          KERNELS,
          new Ratio("kiln/kiln sync copy-in", Impl.KILN, Impl.KILN_SYNC_COPY),
          new Ratio("kiln/djl", Impl.KILN, Impl.DJL),
          new Ratio("kiln/hand-written attention", Impl.KILN, Impl.KILN_HAND),
          new Ratio("kiln+loss/floor", Impl.KILN_LOSS, Impl.FLOOR),
          new Ratio("kiln no check/fwd+bwd only", Impl.KILN_NO_CHECK, Impl.FWD_BWD),
          new Ratio("floor/fwd+bwd only", Impl.FLOOR, Impl.FWD_BWD));

  private ThroughputTable() {}

  /**
   * A speed target: the median over rounds of {@code ratio} at {@code workload} and {@code batch}
   * must be at least {@code limit}.
   */
  record Target(String issue, Workload workload, int batch, Ratio ratio, double limit) {}

  /**
   * The speed targets the throughput part checks (issue 38, item 4: the fixed cost of a step, on
   * the MLP, against forward and backward alone with neither the copy-in nor the update).
   */
  static final List<Target> TARGETS =
      List.of(
          new Target("38", Workload.MLP, 32, KERNELS, 0.6),
          new Target("38", Workload.MLP, 256, KERNELS, 0.8));

  /**
   * Every {@link #TARGETS target} whose row and implementations {@code samples} measured: the
   * ratio's median (min–max) over rounds, the limit, whether the median meets it, and in how many
   * rounds the ratio did. Empty when none was measured.
   */
  static String targets(List<Sample> samples) {
    Map<Row, Map<Impl, Map<Integer, Double>>> rows = group(samples);
    StringBuilder out = new StringBuilder();
    for (Target t : TARGETS) {
      Map<Impl, Map<Integer, Double>> byImpl = rows.get(new Row(t.workload(), t.batch()));
      if (byImpl == null) {
        continue;
      }
      List<Double> v =
          perRound(byImpl.get(t.ratio().top()), byImpl.get(t.ratio().bottom()), (a, b) -> a / b);
      if (v == null) {
        continue;
      }
      if (out.length() == 0) {
        out.append(
            "| workload | batch | ratio | median (min–max) | target | median meets it "
                + "| rounds at or above |\n|---|---:|---|---:|---:|---|---:|\n");
      }
      double median = Stats.median(v);
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s | %s | ≥ %.2f (issue %s) | %s | %d of %d |%n",
              t.workload().label(),
              t.batch(),
              t.ratio().name(),
              cell(v, "%.2f"),
              t.limit(),
              t.issue(),
              median >= t.limit() ? "yes" : "NO",
              v.stream().filter(x -> x >= t.limit()).count(),
              v.size()));
    }
    return out.toString();
  }

  /** Implementations whose columns a table has only when it measured them. */
  private static final java.util.Set<Impl> OPTIONAL =
      java.util.EnumSet.of(Impl.KILN_HAND, Impl.FWD_BWD_NO_COPY, Impl.KILN_SYNC_COPY);

  /**
   * The implementations a table shows: every one but the {@link #OPTIONAL} ones (the hand-written
   * attention, which only the ViT has; the limit without copy-in and Kiln with MXNet's synchronous
   * copy-in, which only the MLP has), and those too when {@code samples} measured them, so that
   * tables of other workloads keep their columns.
   */
  private static List<Impl> shown(List<Sample> samples) {
    java.util.Set<Impl> measured = java.util.EnumSet.noneOf(Impl.class);
    samples.forEach(s -> measured.add(s.impl()));
    return java.util.Arrays.stream(Impl.values())
        .filter(i -> !OPTIONAL.contains(i) || measured.contains(i))
        .toList();
  }

  /** The ratios of {@link #RATIOS} over implementations {@link #shown} shows. */
  private static List<Ratio> shownRatios(List<Sample> samples) {
    List<Impl> impls = shown(samples);
    return RATIOS.stream()
        .filter(r -> impls.contains(r.top()) && impls.contains(r.bottom()))
        .toList();
  }

  /** The row key: a workload at one batch size. */
  private record Row(Workload workload, int batch) {}

  /** Steps per second by row, implementation and round. */
  private static Map<Row, Map<Impl, Map<Integer, Double>>> group(List<Sample> samples) {
    return group(samples, false);
  }

  /** Steps per second of wall-clock or of CPU time by row, implementation and round. */
  private static Map<Row, Map<Impl, Map<Integer, Double>>> group(
      List<Sample> samples, boolean cpu) {
    Map<Row, Map<Impl, Map<Integer, Double>>> rows =
        new TreeMap<>(
            (a, b) ->
                a.workload() != b.workload()
                    ? a.workload().compareTo(b.workload())
                    : Integer.compare(a.batch(), b.batch()));
    for (Sample s : samples) {
      rows.computeIfAbsent(new Row(s.workload(), s.batch()), r -> new EnumMap<>(Impl.class))
          .computeIfAbsent(s.impl(), i -> new TreeMap<>())
          .put(s.rep(), cpu ? s.stepsPerCpuSecond() : s.stepsPerSecond());
    }
    return rows;
  }

  /** Steps per second: one row per workload and batch size, one column per implementation. */
  static String stepsPerSecond(List<Sample> samples) {
    Map<Row, Map<Impl, Map<Integer, Double>>> rows = group(samples);
    List<Impl> impls = shown(samples);
    StringBuilder out = new StringBuilder("| workload | batch");
    for (Impl i : impls) {
      out.append(" | ").append(i.label());
    }
    out.append(" | rounds |\n|---|---:").append("|---:".repeat(impls.size())).append("|---:|\n");
    rows.forEach(
        (row, byImpl) -> {
          out.append("| ").append(row.workload().label()).append(" | ").append(row.batch());
          for (Impl i : impls) {
            Map<Integer, Double> v = byImpl.get(i);
            out.append(" | ").append(cell(v == null ? null : new ArrayList<>(v.values()), "%.0f"));
          }
          out.append(" | ")
              .append(byImpl.values().stream().mapToInt(Map::size).max().orElse(0))
              .append(" |\n");
        });
    return out.toString();
  }

  /** The ratios of {@link #RATIOS}, each the median (min–max) of its per-round values. */
  static String ratios(List<Sample> samples) {
    return ratios(samples, false);
  }

  /**
   * The ratios of {@link #RATIOS} of steps per second of wall-clock time or, with {@code cpu}, of
   * the process's CPU time (all threads), each the median (min–max) of its per-round values.
   */
  static String ratios(List<Sample> samples, boolean cpu) {
    Map<Row, Map<Impl, Map<Integer, Double>>> rows = group(samples, cpu);
    List<Ratio> ratios = shownRatios(samples);
    StringBuilder out = new StringBuilder("| workload | batch");
    ratios.forEach(r -> out.append(" | ").append(r.name()));
    out.append(" |\n|---|---:").append("|---:".repeat(ratios.size())).append("|\n");
    rows.forEach(
        (row, byImpl) -> {
          out.append("| ").append(row.workload().label()).append(" | ").append(row.batch());
          for (Ratio r : ratios) {
            List<Double> v = perRound(byImpl.get(r.top()), byImpl.get(r.bottom()), (a, b) -> a / b);
            if (v != null && v.stream().anyMatch(x -> !Double.isFinite(x))) {
              v = null;
            }
            out.append(" | ").append(cell(v, "%.2f"));
          }
          out.append(" |\n");
        });
    return out.toString();
  }

  /**
   * What the per-update gradient check costs (issue 10): per round, Kiln's microseconds per step
   * minus those of Kiln with {@code checkGradients(false)}, and that as a share of Kiln's step.
   * Empty when no row has both.
   */
  static String checkCost(List<Sample> samples) {
    StringBuilder out = new StringBuilder();
    group(samples)
        .forEach(
            (row, byImpl) -> {
              Map<Integer, Double> on = byImpl.get(Impl.KILN);
              Map<Integer, Double> off = byImpl.get(Impl.KILN_NO_CHECK);
              if (on == null || off == null) {
                return;
              }
              if (out.length() == 0) {
                out.append(
                    "| workload | batch | kiln µs/step | no grad check µs/step | check µs/step "
                        + "| check, % of kiln's step |\n|---|---:|---:|---:|---:|---:|\n");
              }
              out.append(
                  String.format(
                      Locale.ROOT,
                      "| %s | %d | %s | %s | %s | %s |%n",
                      row.workload().label(),
                      row.batch(),
                      cell(micros(on), "%.0f"),
                      cell(micros(off), "%.0f"),
                      cell(perRound(on, off, (a, b) -> 1e6 / a - 1e6 / b), "%.0f"),
                      cell(
                          perRound(on, off, (a, b) -> 100 * (1e6 / a - 1e6 / b) / (1e6 / a)),
                          "%.1f")));
            });
    return out.toString();
  }

  private static List<Double> micros(Map<Integer, Double> stepsPerSecond) {
    return stepsPerSecond.values().stream().map(v -> 1e6 / v).toList();
  }

  /** {@code f(top, bottom)} for every round both have, or null when either is missing. */
  static List<Double> perRound(
      Map<Integer, Double> top, Map<Integer, Double> bottom, ToDoubleBiFunction<Double, Double> f) {
    if (top == null || bottom == null) {
      return null;
    }
    List<Double> out = new ArrayList<>();
    Map<Integer, Double> b = new LinkedHashMap<>(bottom);
    top.forEach(
        (round, v) -> {
          Double w = b.get(round);
          if (w != null) {
            out.add(f.applyAsDouble(v, w));
          }
        });
    return out.isEmpty() ? null : out;
  }

  /** {@code median (min–max)} in {@code format}, or a dash when there is no measurement. */
  static String cell(List<Double> values, String format) {
    if (values == null || values.isEmpty()) {
      return "–";
    }
    return String.format(
        Locale.ROOT,
        format + " (" + format + "–" + format + ")",
        Stats.median(values),
        Stats.min(values),
        Stats.max(values));
  }

  /** {@code median (min–max)} to whole numbers, or a dash when there is no measurement. */
  static String cell(List<Double> values) {
    return cell(values, "%.0f");
  }
}
