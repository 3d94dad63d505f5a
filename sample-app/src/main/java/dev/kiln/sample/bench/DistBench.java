package dev.kiln.sample.bench;

import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.data.Batch;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.dist.DataParallel;
import dev.kiln.runtime.dist.Launcher;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.sample.Main;
import dev.kiln.sample.data.FashionMnist;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.sample.models.FashionMlpModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench dist}: what data parallelism buys on this machine. Two tables:
 *
 * <ul>
 *   <li><b>contexts</b>: LeNet (or the MLP) trained on one CPU context (the classifier's own step)
 *       against {@link DataParallel#local} on two, in one child JVM with {@code OMP_NUM_THREADS=1},
 *       interleaved round by round on the same batches; the ratio is computed per round.
 *   <li><b>jobs</b>: {@code dist_sync} jobs of 1, 2 and 4 workers and one server on loopback
 *       ({@link Launcher}), each worker training the same number of steps of its shard; steps per
 *       second of the job (its slowest worker), examples per second of all workers, and the
 *       milliseconds per step in the push and pull (waiting for the other workers and the server
 *       included), with the optimizer on the workers and on the servers.
 * </ul>
 */
@Command(
    name = "dist",
    mixinStandardHelpOptions = true,
    description =
        "Data-parallel training: 2 CPU contexts against 1 in one process, and "
            + "dist_sync jobs of 1, 2 and 4 workers on loopback.")
public final class DistBench implements Callable<Integer> {
  private static final Pattern WORKER_LINE =
      Pattern.compile(
          "data-parallel rank (\\d+): (\\d+) "
              + "steps in ([\\d.]+) s of training \\(([\\d.]+) steps/s, (\\d+) examples/s per worker\\)"
              + ", push and pull ([\\d.]+) ms per step");

  @Option(
      names = "--data",
      defaultValue = "/usr/share/datasets/fashion-mnist",
      description = "Directory with the Fashion-MNIST IDX files (default: ${DEFAULT-VALUE}).")
  Path data;

  @Option(
      names = "--steps",
      defaultValue = "200",
      description =
          "Timed steps per context "
              + "configuration and round, and per worker of a job (default: ${DEFAULT-VALUE}).")
  int steps;

  @Option(
      names = "--rounds",
      defaultValue = "5",
      description = "Rounds of the contexts table " + "(default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--workers",
      split = ",",
      defaultValue = "1,2,4",
      description = "Workers per " + "job (default: ${DEFAULT-VALUE}).")
  List<Integer> workerCounts;

  @Option(
      names = "--models",
      split = ",",
      defaultValue = "mlp,lenet",
      description = "Models of the jobs table (default: ${DEFAULT-VALUE}).")
  List<String> models;

  @Option(
      names = "--parts",
      split = ",",
      defaultValue = "contexts,jobs",
      description = "Which " + "tables: contexts, jobs (default: ${DEFAULT-VALUE}).")
  List<String> parts;

  @Option(
      names = "--out",
      defaultValue = "out/bench-dist",
      description = "Logs of the jobs " + "(default: ${DEFAULT-VALUE}).")
  Path out;

  @Override
  public Integer call() throws Exception {
    if (steps < 10 || rounds < 1) {
      throw new IllegalArgumentException(
          "--steps must be at least 10 and --rounds at least 1, "
              + "got "
              + steps
              + " and "
              + rounds);
    }
    System.out.println(machine());
    System.out.print(report());
    return 0;
  }

  /**
   * The tables {@code bench}'s {@code DATA_PARALLEL} part prints: a short run with {@code quick}.
   */
  static String report(Path data, boolean quick, String classPath) throws Exception {
    DistBench b = new DistBench();
    b.classPath = classPath;
    b.data = data;
    b.steps = quick ? 20 : 200;
    b.rounds = quick ? 1 : 5;
    b.models = quick ? List.of("mlp") : List.of("mlp", "lenet");
    b.workerCounts = quick ? List.of(2) : List.of(1, 2, 4);
    b.parts = List.of("contexts", "jobs");
    try (ScratchDir scratch = ScratchDir.create("kiln-bench-dist")) {
      b.out = scratch.path();
      return b.report();
    }
  }

  private String report() throws Exception {
    StringBuilder text = new StringBuilder();
    if (parts.contains("contexts")) {
      text.append(contexts());
    }
    if (parts.contains("jobs")) {
      text.append(jobs());
    }
    return text.toString();
  }

  /** The contexts table, measured in a child JVM whose OpenMP runs one thread per context. */
  private String contexts() throws Exception {
    List<String> command =
        java(
            "-Xmx2g",
            DistBench.class.getName() + "$Contexts",
            data.toString(),
            Integer.toString(steps),
            Integer.toString(rounds));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("OMP_NUM_THREADS", "1");
    pb.environment().put("OPT_OUT_TRACKING", "true");
    pb.environment().putIfAbsent("MXNET_SUBGRAPH_VERBOSE", "0");
    Process p = pb.start();
    List<String> lines = new ArrayList<>();
    try (var in = p.inputReader(StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    }
    if (p.waitFor() != 0) {
      throw new IllegalStateException(
          "the contexts benchmark failed:\n" + String.join("\n", lines));
    }
    return String.join("\n", lines) + "\n";
  }

  /** The jobs table: one job per model, worker count and place of the update. */
  private String jobs() throws IOException {
    StringBuilder t = new StringBuilder();
    t.append("\n");
    t.append(
        String.format(
            Locale.ROOT,
            "dist_sync jobs on loopback, 1 server, %d steps per worker "
                + "(OMP_NUM_THREADS=1 in every process)%n",
            steps));
    t.append(
        String.format(
            Locale.ROOT,
            "%-6s %5s %7s %8s %10s %12s %13s%n",
            "model",
            "batch",
            "workers",
            "updates",
            "steps/s",
            "examples/s",
            "push+pull ms"));
    for (String model : models) {
      int batch = model.equals("mlp") ? 32 : 64;
      for (int w : workerCounts) {
        for (String updates : List.of("workers", "servers")) {
          Job j = job(model, batch, w, updates);
          t.append(
              String.format(
                  Locale.ROOT,
                  "%-6s %5d %7d %8s %10.1f %12.0f %13.2f%n",
                  model,
                  batch,
                  w,
                  updates,
                  j.stepsPerSecond(),
                  j.stepsPerSecond() * batch * w,
                  j.pushPullMillis()));
        }
      }
    }
    return t.toString();
  }

  private record Job(double stepsPerSecond, double pushPullMillis) {}

  private Job job(String model, int batch, int workers, String updates) throws IOException {
    Path logs = out.resolve(model + "-" + workers + "w-" + updates);
    List<String> command =
        java(
            "-Xmx1g",
            Main.class.getName(),
            "train",
            "--model",
            model,
            "--epochs",
            "1",
            "--limit",
            Integer.toString(steps * batch * workers),
            "--batch-size",
            Integer.toString(batch),
            "--updates",
            updates,
            "--time-pushpull",
            "--data",
            data.toString(),
            "--out",
            logs.resolve("out").toString());
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    int status =
        Launcher.run(
            new Launcher.Spec(
                workers,
                1,
                command,
                logs,
                Map.of("OPT_OUT_TRACKING", "true"),
                Duration.ofMinutes(20),
                Duration.ofMinutes(2),
                Duration.ofMinutes(2)),
            new PrintStream(text, true, StandardCharsets.UTF_8));
    if (status != 0) {
      throw new IllegalStateException(
          "job " + logs + " failed:\n" + text.toString(StandardCharsets.UTF_8));
    }
    double slowest = Double.MAX_VALUE;
    double pushPull = 0;
    int found = 0;
    try (Stream<Path> files = Files.list(logs)) {
      for (Path log :
          files.filter(f -> f.getFileName().toString().startsWith("worker-")).toList()) {
        Matcher m = WORKER_LINE.matcher(Files.readString(log));
        if (m.find()) {
          slowest = Math.min(slowest, Double.parseDouble(m.group(4)));
          pushPull += Double.parseDouble(m.group(6));
          found++;
        }
      }
    }
    if (found != workers) {
      throw new IllegalStateException(
          found + " of " + workers + " workers of " + logs + " reported their speed");
    }
    return new Job(slowest, pushPull / workers);
  }

  /** The class path of the JVMs this benchmark starts. */
  private String classPath = System.getProperty("java.class.path");

  private List<String> java(String heap, String main, String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                heap,
                "--enable-native-access=ALL-UNNAMED",
                "-Dai.djl.offline=true",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                "-cp",
                classPath,
                main));
    command.addAll(Arrays.asList(args));
    return command;
  }

  /** The child JVM of the contexts table, started with {@code OMP_NUM_THREADS=1}. */
  public static final class Contexts {
    private Contexts() {}

    /** {@code Contexts DATA STEPS ROUNDS}: prints the table. */
    public static void main(String[] args) throws Exception {
      if (!"1".equals(System.getenv("OMP_NUM_THREADS"))) {
        throw new IllegalStateException("run with OMP_NUM_THREADS=1 (one thread per context)");
      }
      FashionMnist data = FashionMnist.load(Path.of(args[0]));
      int steps = Integer.parseInt(args[1]);
      int rounds = Integer.parseInt(args[2]);
      int warmup = 20;
      System.out.println();
      System.out.printf(
          Locale.ROOT,
          "CPU contexts in one process, OMP_NUM_THREADS=1, %d steps "
              + "per measurement after %d warm-up steps, %d rounds%n",
          steps,
          warmup,
          rounds);
      System.out.printf(
          Locale.ROOT, "%-6s %5s %9s %9s %7s%n", "model", "batch", "1 ctx/s", "2 ctx/s", "ratio");
      for (String model : List.of("lenet", "mlp")) {
        int batch = model.equals("mlp") ? 32 : 64;
        Dataset train = data.train().first((steps + warmup) * batch);
        double[] one = new double[rounds];
        double[] two = new double[rounds];
        double[] ratio = new double[rounds];
        for (int r = 0; r < rounds; r++) {
          one[r] = stepsPerSecond(model, train, batch, 1, steps, warmup);
          two[r] = stepsPerSecond(model, train, batch, 2, steps, warmup);
          ratio[r] = two[r] / one[r];
        }
        System.out.printf(
            Locale.ROOT,
            "%-6s %5d %9.1f %9.1f %7.2f  (ratio per round: %s)%n",
            model,
            batch,
            median(one),
            median(two),
            median(ratio),
            spread(ratio));
      }
    }

    /** Steps per second of {@code contexts} contexts on the same batches. */
    private static double stepsPerSecond(
        String name, Dataset train, int batch, int contexts, int steps, int warmup) {
      try (KilnModel model =
              name.equals("mlp") ? FashionMlpModel.create() : FashionLeNetModel.create();
          Sgd sgd = new Sgd(0.05f);
          DataParallel dp = contexts > 1 ? DataParallel.local(model, contexts) : null) {
        Iterator<Batch> batches = train.batches(batch, false, 0).iterator();
        long started = 0;
        for (int i = 0; i < warmup + steps; i++) {
          if (i == warmup) {
            model.params().parameters().get(0).get();
            started = System.nanoTime();
          }
          if (!batches.hasNext()) {
            batches = train.batches(batch, false, 0).iterator();
          }
          Batch b = batches.next();
          if (dp == null) {
            model.classifier().trainBatch(b.features(), b.labels(), sgd);
          } else {
            dp.step(b.features(), b.labels(), sgd, b.labels().length).score();
          }
        }
        model.params().parameters().get(0).get();
        return steps / ((System.nanoTime() - started) / 1e9);
      }
    }
  }

  /** The date, the CPU, its cores and the load averages when the run starts. */
  static String machine() {
    String cpu = "unknown CPU";
    String load = "unknown";
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          cpu = line.substring(line.indexOf(':') + 1).trim();
          break;
        }
      }
      load =
          Files.readString(Path.of("/proc/loadavg")).split(" ", 4)[0]
              + " "
              + Files.readString(Path.of("/proc/loadavg")).split(" ", 4)[1];
    } catch (IOException | RuntimeException e) {
      // Not Linux: leave the description short.
    }
    return String.format(
        Locale.ROOT,
        "Kiln data-parallel benchmark, %s; %s, %d cores, load "
            + "average %s (1 and 5 min) at the start",
        java.time.LocalDate.now(),
        cpu,
        Runtime.getRuntime().availableProcessors(),
        load);
  }

  private static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  private static String spread(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    return String.format(Locale.ROOT, "%.2f-%.2f", v[0], v[v.length - 1]);
  }
}
