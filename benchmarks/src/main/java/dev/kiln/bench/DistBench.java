package dev.kiln.bench;

import dev.kiln.cli.launch.Launcher;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.data.Batch;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.data.FashionMnist;
import dev.kiln.runtime.dist.DataParallel;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.sample.Main;
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
            + "dist_sync jobs of 1, 2 and 4 workers on loopback; --links measures jobs across "
            + "network namespaces at link speeds (root), --simulate prints the scaling model.")
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
      description =
          "Models of the jobs table (default: mlp,lenet) or of --simulate (default: "
              + "mlp,lenet,lstm).")
  List<String> models;

  @Option(
      names = "--parts",
      split = ",",
      defaultValue = "contexts,jobs",
      description = "Which " + "tables: contexts, jobs (default: ${DEFAULT-VALUE}).")
  List<String> parts;

  @Option(
      names = "--simulate",
      description =
          "Print the scaling model instead of the tables: each model's compute per step measured "
              + "here (a 1-worker job), the links' cost per megabyte from --link-costs (or "
              + "--links), the step time and speed-up for --sim-workers workers, and what keeps "
              + "half the efficiency.")
  boolean simulate;

  @Option(
      names = "--links",
      split = ",",
      paramLabel = "MBIT",
      description =
          "Measure dist_sync jobs (2 workers, 1 server, the MLP) across network namespaces with "
              + "every link shaped to each speed in Mbit/s (0: unshaped); needs root and ip. With "
              + "--simulate, the model uses these costs.")
  List<Double> links;

  @Option(
      names = "--link-costs",
      split = ",",
      paramLabel = "NAME=MS",
      defaultValue = DEFAULT_LINK_COSTS,
      description =
          "The links of --simulate: milliseconds of push and pull per megabyte on the busiest "
              + "link (default, measured 2026-12-02 with --links: ${DEFAULT-VALUE}).")
  List<String> linkCosts;

  @Option(
      names = "--sim-workers",
      split = ",",
      defaultValue = "2,4,8,16,64",
      description = "Worker counts of --simulate (default: ${DEFAULT-VALUE}).")
  List<Integer> simWorkers;

  @Option(
      names = "--vit",
      paramLabel = "PARAMS:GFLOPS:BATCH",
      defaultValue = "5500000:0.54:32",
      description =
          "The ViT row of --simulate, which has no sample model to measure: its parameters, "
              + "forward GFLOPs per example and batch; its compute is estimated from the FLOP "
              + "rate LeNet reaches here (default: ViT-Ti, 12 layers of width 192 on 28x28 "
              + "images in 4x4 patches, ${DEFAULT-VALUE}).")
  String vit;

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
    if (links != null && !links.isEmpty()) {
      List<LinkBench.Job> measured = measureLinks();
      System.out.println();
      System.out.println(
          "dist_sync jobs across network namespaces (tc tbf on every link), 2 workers and 1 "
              + "server each on a host of its own, the MLP at batch 32");
      System.out.print(LinkBench.table(measured));
      if (simulate) {
        linkCosts =
            measured.stream()
                .map(
                    j ->
                        (j.mbit() > 0 ? (long) j.mbit() + "mbit" : "bridge")
                            + "="
                            + j.millisPerBusiestMegabyte())
                .toList();
      }
    }
    if (simulate) {
      System.out.print(simulation());
    } else if (links == null || links.isEmpty()) {
      System.out.print(report());
    }
    return 0;
  }

  /** The default link costs of --simulate, measured with --links 0,1000,100,10. */
  static final String DEFAULT_LINK_COSTS = "1gbit=21.2,100mbit=144.8,10mbit=1254";

  /** Jobs across namespaces at each of {@link #links}. */
  private List<LinkBench.Job> measureLinks() throws IOException {
    java.util.Optional<String> why =
        links.stream().anyMatch(mbit -> mbit > 0)
            ? Namespaces.shapingUnavailable()
            : Namespaces.unavailable();
    if (why.isPresent()) {
      throw new IllegalStateException("--links needs network namespaces and tc: " + why.get());
    }
    List<LinkBench.Job> jobs = new ArrayList<>();
    try (Namespaces net = Namespaces.create(LinkBench.hostsFor(2, 1))) {
      for (double mbit : links) {
        int n = mbit > 0 && mbit < 50 ? Math.max(10, steps / 10) : steps;
        jobs.add(
            LinkBench.run(
                net,
                classPath,
                data,
                out.resolve("link-" + (long) mbit),
                "mlp",
                32,
                n,
                2,
                1,
                mbit,
                Map.of()));
      }
    }
    return jobs;
  }

  /** The scaling model's tables, from compute measured now and the link costs. */
  private String simulation() throws IOException {
    List<String> names = models == null ? List.of("mlp", "lenet", "lstm") : models;
    List<ScalingModel.Model> planned = new ArrayList<>();
    double flopRate = 0;
    for (String name : names) {
      int batch = name.equals("lstm") ? 64 : 32;
      Job j = job(name, batch, 1, "workers");
      double compute = 1000 / j.stepsPerSecond() - j.pushPullMillis();
      planned.add(new ScalingModel.Model(name, j.params(), batch, compute, "measured"));
      if (name.equals("lenet") || flopRate == 0) {
        // Training costs about three forward passes.
        flopRate = 3 * j.forwardFlops() * batch / (compute / 1000);
      }
    }
    String[] v = vit.split(":");
    long vitParams = Long.parseLong(v[0]);
    double vitFlops = Double.parseDouble(v[1]) * 1e9;
    int vitBatch = Integer.parseInt(v[2]);
    double vitCompute = 3 * vitFlops * vitBatch / flopRate * 1000;
    planned.add(
        new ScalingModel.Model(
            "vit-ti",
            vitParams,
            vitBatch,
            vitCompute,
            String.format(Locale.ROOT, "estimated at %.2f GFLOP/s", flopRate / 1e9)));
    List<ScalingModel.Link> linkList = new ArrayList<>();
    for (String cost : linkCosts) {
      String[] kv = cost.split("=", 2);
      linkList.add(new ScalingModel.Link(kv[0], Double.parseDouble(kv[1])));
    }
    StringBuilder t = new StringBuilder();
    t.append("\nCompute per step on one worker (OMP_NUM_THREADS=1, a 1-worker job on loopback, ")
        .append(steps)
        .append(" steps, less its push and pull):\n");
    for (ScalingModel.Model m : planned) {
      t.append(
          String.format(
              Locale.ROOT,
              "  %-8s %9d params, batch %d: %.1f ms (%s)%n",
              m.name(),
              m.params(),
              m.batch(),
              m.computeMillis(),
              m.source()));
    }
    t.append("Links, ms of push and pull per MB on the busiest link: ")
        .append(String.join(", ", linkCosts))
        .append("\n\nSpeed-up over one process and step time, 1 server (dist_sync):\n");
    t.append(ScalingModel.table(planned, linkList, simWorkers));
    int most = simWorkers.stream().mapToInt(Integer::intValue).max().orElse(16);
    int plan = Math.min(16, most);
    t.append("\nTo keep half the efficiency at ")
        .append(plan)
        .append(" workers: a bigger batch per worker, or more servers with the fused array ")
        .append("sliced over them (MXNET_KVSTORE_BIGARRAY_BOUND below the parameter count):\n");
    t.append(ScalingModel.remedies(planned, linkList, plan));
    return t.toString();
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
    for (String model : models == null ? List.of("mlp", "lenet") : models) {
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

  private record Job(
      double stepsPerSecond, double pushPullMillis, long params, double forwardFlops) {}

  private static final Pattern TOTAL =
      Pattern.compile("(?m)^total\\s+(\\d+)\\s+(?:>= )?([\\d.]+)(?: ([KMG]))?\\s");

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
    long params = -1;
    double flops = 0;
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
          double scale =
              total.group(3) == null
                  ? 1
                  : switch (total.group(3)) {
                    case "K" -> 1e3;
                    case "M" -> 1e6;
                    default -> 1e9;
                  };
          flops = Double.parseDouble(total.group(2)) * scale;
        }
      }
    }
    if (found != workers) {
      throw new IllegalStateException(
          found + " of " + workers + " workers of " + logs + " reported their speed");
    }
    return new Job(slowest, pushPull / workers, params, flops);
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
