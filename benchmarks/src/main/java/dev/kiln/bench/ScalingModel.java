package dev.kiln.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A model of a {@code dist_sync} job's step time for planning past one machine, from measured
 * figures: a model's compute time per step on one worker, and a link's cost per megabyte that
 * crosses the job's busiest link.
 *
 * <p>Per step, every worker pushes its gradient (4 bytes per parameter: Kiln fuses every parameter
 * into one key) and pulls the sum back; the servers' links carry {@code workers / servers} times a
 * worker's share in each direction (when the fused array is sliced over the servers, see {@code
 * MXNET_KVSTORE_BIGARRAY_BOUND}), a worker's link one share. Kiln starts the push after the whole
 * backward pass and waits for the pull before the next step, so nothing overlaps:
 *
 * <pre>
 *   step(W, S) = compute + cost(link) * 4 * params * max(1, W / S) / 1e6
 *   speed-up(W, S) = W * compute / step(W, S)       (against one process, no store)
 * </pre>
 *
 * <p>{@code cost(link)} is measured ({@link LinkBench}: two workers and one server across
 * namespaces, in milliseconds of push and pull per megabyte on the busiest link), so it holds
 * ps-lite's software costs and tbf's bursts as well as the wire time. The job stops paying when its
 * efficiency (speed-up per worker) falls below one half: communication then takes longer than
 * compute.
 */
public final class ScalingModel {
  private ScalingModel() {}

  /**
   * A model to plan for.
   *
   * @param name its name
   * @param params trainable parameters
   * @param batch examples per step per worker
   * @param computeMillis one worker's compute per step at that batch (forward, backward, update)
   * @param source where the compute time comes from ("measured", or an estimate)
   */
  public record Model(String name, long params, int batch, double computeMillis, String source) {}

  /**
   * A link speed.
   *
   * @param name e.g. "1 Gbit"
   * @param millisPerMegabyte push and pull time per megabyte crossing the busiest link per step
   */
  public record Link(String name, double millisPerMegabyte) {}

  /** Milliseconds of push and pull per step. */
  public static double commMillis(Model m, Link l, int workers, int servers) {
    return l.millisPerMegabyte()
        * 4.0
        * m.params()
        * Math.max(1.0, (double) workers / servers)
        / 1e6;
  }

  /**
   * The share of {@link #commMillis} left with MXNet's {@code 2bit} compression: the push carries 2
   * bits of every 32, the pull stays full size.
   */
  public static final double TWO_BIT_SHARE = (1 + 2 / 32.0) / 2;

  /** Throughput against one process with every push {@code 2bit}-compressed. */
  public static double speedUpTwoBit(Model m, Link l, int workers, int servers) {
    return workers
        * m.computeMillis()
        / (m.computeMillis() + TWO_BIT_SHARE * commMillis(m, l, workers, servers));
  }

  /** Milliseconds per step of {@code workers} workers and {@code servers} servers. */
  public static double stepMillis(Model m, Link l, int workers, int servers) {
    return m.computeMillis() + commMillis(m, l, workers, servers);
  }

  /** Throughput against one process without a store. */
  public static double speedUp(Model m, Link l, int workers, int servers) {
    return workers * m.computeMillis() / stepMillis(m, l, workers, servers);
  }

  /**
   * The fewest workers (a power of two from 2) at which efficiency falls below one half, or -1 if
   * it holds up to {@code max}.
   */
  public static int stopsPaying(Model m, Link l, int servers, int max) {
    for (int w = 2; w <= max; w *= 2) {
      if (speedUp(m, l, w, servers) < w / 2.0) {
        return w;
      }
    }
    return -1;
  }

  /**
   * The batch per worker at which compute equals communication with {@code workers} workers and
   * {@code servers} servers, taking compute as proportional to the batch.
   */
  public static int batchForHalfEfficiency(Model m, Link l, int workers, int servers) {
    double perExample = m.computeMillis() / m.batch();
    return (int) Math.ceil(commMillis(m, l, workers, servers) / perExample);
  }

  /**
   * The fewest servers (up to {@code workers}) with which compute covers communication, or -1 when
   * even one server per worker is not enough (a worker's own link is then the limit).
   */
  public static int serversForHalfEfficiency(Model m, Link l, int workers) {
    for (int s = 1; s <= workers; s++) {
      if (commMillis(m, l, workers, s) <= m.computeMillis()) {
        return s;
      }
    }
    return -1;
  }

  /** The speed-up table: one row per model and link, one column per worker count. */
  public static String table(List<Model> models, List<Link> links, List<Integer> workers) {
    StringBuilder t = new StringBuilder();
    List<String> head = new ArrayList<>();
    for (int w : workers) {
      head.add(String.format(Locale.ROOT, "%16s", "W=" + w));
    }
    t.append(
        String.format(
            Locale.ROOT,
            "%-8s %9s %5s %9s %8s %s  %s%n",
            "model",
            "params",
            "batch",
            "compute",
            "link",
            String.join(" ", head),
            "stops paying"));
    for (Model m : models) {
      for (Link l : links) {
        List<String> cells = new ArrayList<>();
        for (int w : workers) {
          cells.add(
              String.format(
                  Locale.ROOT,
                  "%16s",
                  String.format(
                      Locale.ROOT,
                      "%.1fx %s",
                      speedUp(m, l, w, 1),
                      millis(stepMillis(m, l, w, 1)))));
        }
        int stop = stopsPaying(m, l, 1, 1024);
        t.append(
            String.format(
                Locale.ROOT,
                "%-8s %9d %5d %9s %8s %s  %s%n",
                m.name(),
                m.params(),
                m.batch(),
                millis(m.computeMillis()),
                l.name(),
                String.join(" ", cells),
                stop < 0 ? "not by 1024" : "at " + stop + " workers"));
      }
    }
    return t.toString();
  }

  /**
   * What keeps efficiency at one half with {@code workers} workers on each link (the batch per
   * worker, or the servers), and the speed-up {@code 2bit} compression would give instead.
   */
  public static String remedies(List<Model> models, List<Link> links, int workers) {
    StringBuilder t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "%-8s %8s %22s %30s %20s%n",
            "model",
            "link",
            "batch/worker, 1 server",
            "servers (array sliced), batch",
            "2bit, 1 server: x"));
    for (Model m : models) {
      for (Link l : links) {
        int s = serversForHalfEfficiency(m, l, workers);
        t.append(
            String.format(
                Locale.ROOT,
                "%-8s %8s %22s %30s %20s%n",
                m.name(),
                l.name(),
                batchForHalfEfficiency(m, l, workers, 1) <= m.batch()
                    ? m.batch() + " (as is)"
                    : Integer.toString(batchForHalfEfficiency(m, l, workers, 1)),
                s < 0
                    ? "none enough (worker link)"
                    : s + (s == 1 ? " (as is)" : "") + ", " + m.batch(),
                String.format(
                    Locale.ROOT,
                    "%.1fx (%.1fx plain)",
                    speedUpTwoBit(m, l, workers, 1),
                    speedUp(m, l, workers, 1))));
      }
    }
    return t.toString();
  }

  private static String millis(double ms) {
    return ms >= 100
        ? String.format(Locale.ROOT, "%.0fms", ms)
        : String.format(Locale.ROOT, "%.1fms", ms);
  }
}
