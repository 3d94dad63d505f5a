package dev.kiln.bench;

import dev.kiln.cli.launch.Hosts;
import dev.kiln.cli.launch.Launcher;
import dev.kiln.cli.launch.RemoteShell;
import dev.kiln.sample.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code dist_sync} jobs across network namespaces ({@link Namespaces}) whose links are shaped to a
 * given speed: the servers each on a host of their own (the scheduler with server 0), every worker
 * on a host of its own, every link at the same speed. Each worker trains a fixed number of steps
 * with {@code --time-pushpull}; the job reports the steps per second of its slowest worker and the
 * mean milliseconds per step its workers spent in the push and pull.
 */
public final class LinkBench {
  private static final Pattern WORKER_LINE =
      Pattern.compile(
          "data-parallel rank (\\d+): (\\d+) steps in ([\\d.]+) s of training \\(([\\d.]+) "
              + "steps/s, (\\d+) examples/s per worker\\), push and pull ([\\d.]+) ms per step");
  private static final Pattern TOTAL = Pattern.compile("(?m)^total\\s+(\\d+)\\s");

  private LinkBench() {}

  /**
   * One measured job.
   *
   * @param model the sample model
   * @param params its trainable parameters (floats pushed and pulled per step)
   * @param batch examples per step per worker
   * @param workers worker processes
   * @param servers server processes
   * @param mbit every link's speed in Mbit/s; 0 for an unshaped link
   * @param stepsPerSecond the slowest worker's
   * @param pushPullMillis the workers' mean per step
   * @param seconds the job's wall time
   */
  public record Job(
      String model,
      long params,
      int batch,
      int workers,
      int servers,
      double mbit,
      double stepsPerSecond,
      double pushPullMillis,
      double seconds) {
    /**
     * Milliseconds of push and pull per megabyte that crosses the busiest link in each direction
     * per step: the servers' links carry {@code workers / servers} times a worker's 4 bytes per
     * parameter (each way), a worker's link one time.
     */
    public double millisPerBusiestMegabyte() {
      return pushPullMillis / busiestBytes() * 1e6;
    }

    /** Bytes one direction of the busiest link carries per step. */
    public double busiestBytes() {
      return 4.0 * params * Math.max(1.0, (double) workers / servers);
    }
  }

  /** How many namespaces a job of {@code workers} and {@code servers} needs. */
  public static int hostsFor(int workers, int servers) {
    return servers + workers;
  }

  /**
   * Runs one job on {@code net} (at least {@link #hostsFor} hosts) with every link at {@code mbit}
   * (0: unshaped), each worker training {@code steps} steps of {@code model} at {@code batch}.
   */
  public static Job run(
      Namespaces net,
      String classPath,
      Path data,
      Path logs,
      String model,
      int batch,
      int steps,
      int workers,
      int servers,
      double mbit,
      Map<String, String> environment)
      throws IOException {
    List<String> names = net.hosts();
    if (names.size() < hostsFor(workers, servers)) {
      throw new IllegalArgumentException(
          workers
              + " workers and "
              + servers
              + " servers need "
              + hostsFor(workers, servers)
              + " hosts, got "
              + names.size());
    }
    List<Hosts.Host> hosts = new ArrayList<>();
    for (int i = 0; i < hostsFor(workers, servers); i++) {
      hosts.add(new Hosts.Host(names.get(i), i < servers ? 0 : 1));
      if (mbit > 0) {
        net.limit(names.get(i), mbit);
      } else {
        net.unlimit(names.get(i));
      }
    }
    // The training split is the first 11/12 of --limit: enough images for every worker's steps.
    long limit = ((long) steps * batch * workers * 12 + 10) / 11 + 12;
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx1g",
            "--enable-native-access=ALL-UNNAMED",
            "-Dai.djl.offline=true",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
            "-cp",
            classPath,
            Main.class.getName(),
            "train",
            "--model",
            model,
            "--epochs",
            "1",
            "--limit",
            Long.toString(limit),
            "--batch-size",
            Integer.toString(batch),
            "--time-pushpull",
            "--data",
            data.toString(),
            "--out",
            logs.resolve("out").toString());
    Map<String, String> env = new HashMap<>(environment);
    env.put("OPT_OUT_TRACKING", "true");
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    long started = System.nanoTime();
    int status =
        Launcher.run(
            new Launcher.Spec(
                workers,
                servers,
                command,
                logs,
                env,
                Duration.ofMinutes(20),
                Duration.ofMinutes(3),
                Duration.ofMinutes(3),
                new Launcher.Remote(
                    new Hosts(hosts),
                    RemoteShell.parse(Namespaces.remoteShell()),
                    9091,
                    Path.of(System.getProperty("user.dir")).toAbsolutePath())),
            new PrintStream(text, true, StandardCharsets.UTF_8));
    double seconds = (System.nanoTime() - started) / 1e9;
    if (status != 0) {
      throw new IllegalStateException(
          "job " + logs + " failed (" + status + "):\n" + text.toString(StandardCharsets.UTF_8));
    }
    double slowest = Double.MAX_VALUE;
    double pushPull = 0;
    int found = 0;
    long params = -1;
    try (Stream<Path> files = Files.list(logs)) {
      for (Path log :
          files.filter(f -> f.getFileName().toString().startsWith("worker-")).toList()) {
        String content = Files.readString(log);
        Matcher m = WORKER_LINE.matcher(content);
        if (m.find()) {
          slowest = Math.min(slowest, Double.parseDouble(m.group(4)));
          pushPull += Double.parseDouble(m.group(6));
          found++;
        }
        Matcher total = TOTAL.matcher(content);
        if (total.find()) {
          params = Long.parseLong(total.group(1));
        }
      }
    }
    if (found != workers || params < 0) {
      throw new IllegalStateException(
          found + " of " + workers + " workers of " + logs + " reported their speed");
    }
    return new Job(
        model, params, batch, workers, servers, mbit, slowest, pushPull / workers, seconds);
  }

  /** The table of measured jobs. */
  public static String table(List<Job> jobs) {
    StringBuilder t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "%-6s %8s %5s %7s %7s %9s %8s %12s %16s%n",
            "model",
            "params",
            "batch",
            "workers",
            "servers",
            "link",
            "steps/s",
            "push+pull ms",
            "ms per MB (busiest link)"));
    for (Job j : jobs) {
      t.append(
          String.format(
              Locale.ROOT,
              "%-6s %8d %5d %7d %7d %9s %8.2f %12.1f %16.2f%n",
              j.model(),
              j.params(),
              j.batch(),
              j.workers(),
              j.servers(),
              j.mbit() > 0 ? fmt(j.mbit()) + " Mbit" : "bridge",
              j.stepsPerSecond(),
              j.pushPullMillis(),
              j.millisPerBusiestMegabyte()));
    }
    return t.toString();
  }

  private static String fmt(double mbit) {
    return mbit == Math.rint(mbit) ? Long.toString((long) mbit) : Double.toString(mbit);
  }
}
