package dev.kiln.bench;

import dev.kiln.cli.Kiln;
import dev.kiln.cli.ProgramClassPath;
import dev.kiln.runtime.data.DatasetNotFoundException;
import dev.kiln.runtime.mxnet.HandleCounter;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The benchmark harness's command ({@code mvn -B -q -pl benchmarks exec:java -Dexec.args="..."}):
 * trains Fashion-MNIST classifiers (an MLP, two LeNets, an LSTM) several ways (the hand-written
 * MXNet floor, the floor's forward and backward passes only, Kiln, DJL) and reports steps per
 * second with per-round ratios, what Kiln's gradient check costs, start-up time in phases, native
 * handles per step, a leak check, peak memory, and the annotation processor's compile time; and
 * keeps a place for the data-parallel rows.
 *
 * <p>Every MXNet measurement runs in a child JVM with {@code OMP_NUM_THREADS} fixed, so the
 * settings are the same whatever the caller's environment; this JVM never loads MXNet.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmark Kiln against hand-written MXNet calls and DJL on Fashion-MNIST.",
    subcommands = {
      BenchWorker.class,
      DistBench.class,
      CustomBench.class,
      PrecisionBench.class,
      PaddingBench.class,
      InferenceBench.class,
      ImportBench.class
    },
    synopsisSubcommandLabel = "")
public final class Bench implements Callable<Integer> {
  /**
   * Runs the benchmark that {@code args} name (no arguments: every part but PROFILE) and exits with
   * its status: 2, with one usage line, for a bad option.
   */
  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** The configured command line (also used by tests). */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Bench());
    // Every command prints the build's version, -V included.
    CommandLine.IVersionProvider version = () -> new String[] {"bench " + Kiln.version()};
    cl.getCommandSpec().versionProvider(version);
    cl.getSubcommands().values().forEach(sub -> sub.getCommandSpec().versionProvider(version));
    cl.setParameterExceptionHandler(
        (e, args) -> {
          CommandLine cmd = e.getCommandLine();
          PrintWriter err = cmd.getErr();
          err.println(e.getMessage());
          CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
          String name = cmd.getCommandSpec().qualifiedName();
          err.println("Usage: " + name + " [OPTIONS]; `" + name + " --help` lists them");
          err.flush();
          return 2;
        });
    cl.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          if (!(e instanceof IllegalArgumentException || e instanceof DatasetNotFoundException)) {
            throw e;
          }
          cmd.getErr().println(e.getMessage());
          cmd.getErr().flush();
          return 1;
        });
    return cl;
  }

  /** The parts of the benchmark, in the order they run; all but THREADS and PROFILE by default. */
  enum Part {
    THROUGHPUT,
    STARTUP,
    HANDLES,
    RSS,
    COMPILE,
    FREE_DIMS,
    DATA_PARALLEL,
    INFERENCE,
    THREADS,
    PROFILE
  }

  private static final String LEAK_HEAP = "256m";

  @Option(
      names = "--quick",
      description =
          "A smoke run of about 20 seconds: few steps, two "
              + "rounds, one fresh JVM per start-up, a 30-node model to compile; numbers are not "
              + "meaningful.")
  boolean quick;

  @Option(
      names = "--reps",
      description =
          "Timed rounds (every implementation of a workload "
              + "once per round; default: ${DEFAULT-VALUE}).",
      defaultValue = "7")
  int reps;

  @Option(
      names = "--workloads",
      split = ",",
      description =
          "Which workloads THROUGHPUT " + "trains, of ${COMPLETION-CANDIDATES} (default: all).")
  Set<Workload> workloads;

  @Option(
      names = "--omp-threads",
      description =
          "OMP_NUM_THREADS for the measured JVMs, or 0 "
              + "to leave it unset (default: ${DEFAULT-VALUE}).",
      defaultValue = "1")
  int ompThreads;

  @Option(
      names = "--leak-steps",
      description =
          "Kiln steps between the two live-handle counts " + "(default: ${DEFAULT-VALUE}).",
      defaultValue = "20000")
  int leakSteps;

  @Option(
      names = "--parts",
      split = ",",
      description =
          "Which parts to run, of ${COMPLETION-"
              + "CANDIDATES} (default: all but PROFILE, which breaks Kiln's extra time per step "
              + "down, and THREADS, which compares OpenMP thread counts).")
  Set<Part> parts;

  @Option(
      names = "--child-class-path",
      hidden = true,
      description =
          "The class path of the "
              + "measured JVMs (default: this JVM's; a test runner's may differ).")
  String childClassPath;

  @Option(
      names = "--data",
      description = "Directory with the Fashion-MNIST IDX files " + "(default: ${DEFAULT-VALUE}).",
      defaultValue = "/usr/share/datasets/fashion-mnist")
  Path data;

  /** Runs the chosen parts and prints each one's section once, as it finishes. */
  @Override
  public Integer call() {
    if (reps < 1 || ompThreads < 0 || leakSteps < 1) {
      System.err.println("--reps and --leak-steps must be at least 1, --omp-threads at least 0");
      return 2;
    }
    String classpath = childClassPath != null ? childClassPath : ProgramClassPath.get();
    if (!onClassPath(classpath)) {
      System.err.println(
          "bench starts child JVMs on this program's class path, which does not hold the "
              + "benchmarks: "
              + classpath);
      return 2;
    }
    Set<Part> todo =
        parts == null || parts.isEmpty()
            ? EnumSet.complementOf(EnumSet.of(Part.PROFILE, Part.THREADS))
            : parts;
    long started = System.nanoTime();
    ChildJvm child = new ChildJvm(classpath, ompThreads, 900);
    System.out.println(machine());
    for (Part part : new TreeSet<>(todo)) {
      System.err.println("== " + part.name().toLowerCase(Locale.ROOT) + " ==");
      long partStart = System.nanoTime();
      String loadBefore = loadavg();
      String section =
          switch (part) {
            case THROUGHPUT -> throughput(child);
            case STARTUP -> startup(child);
            case HANDLES -> handles(child);
            case RSS -> rss(child);
            case COMPILE -> compile(classpath);
            case FREE_DIMS -> freeDims(classpath);
            case DATA_PARALLEL -> dataParallel();
            case INFERENCE -> inference(classpath);
            case THREADS -> threads(classpath);
            case PROFILE -> profile(child);
          };
      // The report goes to standard output, each section once, as its part finishes; progress
      // and the children's noise go to standard error.
      System.out.printf(
          Locale.ROOT,
          "%s%n(%.0f s; /proc/loadavg before: %s, after: %s)%n%n",
          section,
          (System.nanoTime() - partStart) / 1e9,
          loadBefore,
          loadavg());
    }
    System.out.printf(
        Locale.ROOT,
        "bench finished in %.0f s; /proc/loadavg at the end: %s%n",
        (System.nanoTime() - started) / 1e9,
        loadavg());
    return 0;
  }

  /** Steps per timed run and warm-up steps, full and quick, of a workload at a batch size. */
  static int[] stepsFor(Workload w, int batch, boolean quick) {
    int[] full =
        switch (w) {
          case MLP -> batch <= 32 ? new int[] {1000, 400} : new int[] {250, 80};
          case LENET -> new int[] {40, 15};
          case LENET1632 -> new int[] {60, 20};
          case LSTM -> new int[] {40, 15};
          case VIT -> new int[] {40, 15};
        };
    return quick ? new int[] {Math.max(5, full[0] / 20), Math.max(3, full[1] / 10)} : full;
  }

  private String throughput(ChildJvm child) {
    int n = quick ? 2 : reps;
    Set<Workload> chosen =
        workloads == null || workloads.isEmpty() ? EnumSet.allOf(Workload.class) : workloads;
    List<String> plan = new ArrayList<>();
    StringBuilder planText = new StringBuilder();
    for (Workload w : chosen) {
      for (int b : w.batches()) {
        int[] st = stepsFor(w, b, quick);
        plan.add(w.label() + ":" + b + ":" + st[0] + ":" + st[1]);
        planText.append(
            String.format(
                Locale.ROOT,
                "%s %s at batch %d: %d steps a run after %d " + "warm-up steps%n",
                w.label(),
                "(" + w.description() + ")",
                b,
                st[0],
                st[1]));
      }
    }
    List<Sample> samples = new ArrayList<>();
    Map<String, Double> inputChecks = new LinkedHashMap<>();
    for (Map<String, String> r :
        child.run(
            List.of(),
            List.of(
                "THROUGHPUT",
                "--data",
                data.toString(),
                "--plan",
                String.join(",", plan),
                "--reps",
                Integer.toString(n)))) {
      if (r.get("mode").equals("input-check")) {
        inputChecks.put(
            r.get("workload") + " at batch " + r.get("batch"), Double.parseDouble(r.get("micros")));
        continue;
      }
      samples.add(
          new Sample(
              Workload.of(r.get("workload")),
              Impl.of(r.get("impl")),
              Integer.parseInt(r.get("batch")),
              Integer.parseInt(r.get("rep")),
              Integer.parseInt(r.get("steps")),
              Double.parseDouble(r.get("seconds")),
              Double.parseDouble(r.get("cpuSeconds"))));
    }
    String checks = ThroughputTable.checkCost(samples);
    String targets = ThroughputTable.targets(samples);
    return "### Training throughput (one JVM, "
        + n
        + " rounds; in each round every "
        + "implementation of a workload runs once, back to back, in an order that rotates "
        + "from round to round; the same Fashion-MNIST batches for every implementation, "
        + "converted inside the timed step)\n\n"
        + planText
        + "\nSteps per second, median (min–max) over rounds:\n\n"
        + ThroughputTable.stepsPerSecond(samples)
        + "\nRatios of steps per second, computed round by round; median (min–max) over "
        + "rounds:\n\n"
        + ThroughputTable.ratios(samples)
        + (targets.isEmpty()
            ? ""
            : "\nThe speed targets (a ratio's median over rounds at or above its limit):\n\n"
                + targets)
        + "\nThe same ratios of steps per second of the process's CPU time (every thread, "
        + "MXNet's engine included): much less sensitive to other processes on a busy "
        + "machine, but blind to what overlapping saves and to what waiting costs:\n\n"
        + ThroughputTable.ratios(samples, true)
        + (checks.isEmpty()
            ? ""
            : "\nWhat the per-update gradient check (one finiteness test of every "
                + "gradient, on by default; trainStep leaves it to the next call) costs, per "
                + "round:\n\n"
                + checks)
        + inputChecks(inputChecks);
  }

  /**
   * The floor and Kiln at 1, 2 and all cores' OpenMP threads ({@link ThreadsTable#counts}): every
   * round starts one child JVM per count, in an order that rotates, each timing one run of every
   * row of the plan; ratios against one thread are taken round by round.
   */
  private String threads(String classpath) {
    int n = quick ? 2 : reps;
    Set<Workload> chosen =
        workloads == null || workloads.isEmpty()
            ? EnumSet.of(Workload.MLP, Workload.LENET)
            : workloads;
    List<String> plan = new ArrayList<>();
    for (Workload w : chosen) {
      for (int b : w.batches()) {
        int[] st = stepsFor(w, b, quick);
        plan.add(w.label() + ":" + b + ":" + st[0] + ":" + st[1]);
      }
    }
    int cores = Runtime.getRuntime().availableProcessors();
    List<Integer> counts = ThreadsTable.counts(cores);
    Map<Integer, List<ThreadsTable.Run>> byCount = new LinkedHashMap<>();
    for (int round = 1; round <= n; round++) {
      for (int j = 0; j < counts.size(); j++) {
        int count = counts.get((j + round) % counts.size());
        System.err.println("round " + round + "/" + n + ", OMP_NUM_THREADS=" + count);
        for (Map<String, String> r :
            new ChildJvm(classpath, count, 900)
                .run(
                    List.of(),
                    List.of(
                        "THROUGHPUT",
                        "--data",
                        data.toString(),
                        "--plan",
                        String.join(",", plan),
                        "--reps",
                        "1",
                        "--impls",
                        "FLOOR,KILN"))) {
          if (r.get("mode").equals("throughput")) {
            byCount
                .computeIfAbsent(count, k -> new ArrayList<>())
                .add(
                    new ThreadsTable.Run(
                        new Sample(
                            Workload.of(r.get("workload")),
                            Impl.of(r.get("impl")),
                            Integer.parseInt(r.get("batch")),
                            round,
                            Integer.parseInt(r.get("steps")),
                            Double.parseDouble(r.get("seconds")),
                            Double.parseDouble(r.get("cpuSeconds"))),
                        Double.parseDouble(r.get("waitSeconds"))));
          }
        }
      }
    }
    String policy =
        System.getenv().getOrDefault("OMP_WAIT_POLICY", "unset")
            + ", GOMP_SPINCOUNT "
            + System.getenv().getOrDefault("GOMP_SPINCOUNT", "unset");
    return "### OpenMP threads (OMP_NUM_THREADS 1, 2 and all "
        + cores
        + " cores"
        + (cores == 2 ? ": all is 2 on this machine" : "")
        + "; Kiln's default here: "
        + dev.kiln.runtime.mxnet.OmpThreads.defaultFor(cores)
        + "; OMP_WAIT_POLICY "
        + policy
        + "; "
        + n
        + " rounds, each a fresh JVM per count in an order that rotates)\n\n"
        + "Steps per second and ratios against one thread taken round by round, median "
        + "(min–max) over rounds; process CPU time per step (every thread, MXNet's included) "
        + "and the time its threads waited for a core per step (their schedstat):\n\n"
        + ThreadsTable.format(byCount);
  }

  private static String inputChecks(Map<String, Double> micros) {
    if (micros.isEmpty()) {
      return "";
    }
    StringBuilder s =
        new StringBuilder(
            "\nThe classifier's checks of each training batch in "
                + "Java (every feature finite, every label a class; always on), best of five passes "
                + "over the batches:");
    micros.forEach(
        (row, us) -> s.append(String.format(Locale.ROOT, " %s %.1f µs a batch;", row, us)));
    s.setLength(s.length() - 1);
    return s.append(".\n").toString();
  }

  private String startup(ChildJvm child) {
    int n = quick ? 1 : 3;
    // --quick starts two fresh JVMs, not three, to stay near 20 seconds.
    List<Impl> impls =
        quick ? List.of(Impl.FLOOR, Impl.KILN) : List.of(Impl.FLOOR, Impl.KILN, Impl.DJL);
    String[] keys = {"mainMs", "loadMs", "engineMs", "buildMs", "stepMs", "firstBatchMs"};
    Map<Impl, Map<String, List<Double>>> ms = new EnumMap<>(Impl.class);
    for (int rep = 0; rep < n; rep++) {
      for (Impl impl : impls) {
        for (Map<String, String> r :
            child.run(List.of(), List.of("FIRST_BATCH", "--impl", impl.name()))) {
          for (String k : keys) {
            ms.computeIfAbsent(impl, i -> new LinkedHashMap<>())
                .computeIfAbsent(k, x -> new ArrayList<>())
                .add(Double.parseDouble(r.get(k)));
          }
        }
      }
    }
    StringBuilder s =
        new StringBuilder(
            "### Time from JVM start to the first trained batch "
                + "(MLP, batch 32, synthetic data; ms, median (min–max) of "
                + n
                + " fresh JVMs each, "
                + "run in turn)\n\n"
                + "| impl | JVM start → main | load libmxnet | of which DJL's MXNet engine "
                + "| build and bind | first step | JVM start → first batch trained |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
    for (Impl impl : impls) {
      Map<String, List<Double>> m = ms.get(impl);
      s.append("| ").append(impl.label());
      for (String k : keys) {
        s.append(" | ")
            .append(
                k.equals("engineMs") && impl != Impl.DJL ? "none" : ThroughputTable.cell(m.get(k)));
      }
      s.append(" |\n");
    }
    List<Double> kiln = ms.get(Impl.KILN).get("firstBatchMs");
    List<Double> floor = ms.get(Impl.FLOOR).get("firstBatchMs");
    s.append(
        String.format(
            Locale.ROOT,
            "%nKiln − floor: %+.0f ms (medians). The floor loads "
                + "%s with Native.load and never starts DJL's engine; Kiln finds the same file from "
                + "the native jar's mxnet.properties and loads it the same way; DJL starts its "
                + "engine (Engine.getEngine(\"MXNet\")), which first finds the platform and library "
                + "(DJL's LibUtils, with its CUDA probe) and loads its own JNA interface.%n",
            Stats.median(kiln) - Stats.median(floor),
            dev.kiln.runtime.mxnet.NativeLibrary.path()));
    return s.toString();
  }

  private String handles(ChildJvm child) {
    int countSteps = quick ? 200 : 1000;
    int leak = quick ? Math.min(leakSteps, 1000) : leakSteps;
    StringBuilder s =
        new StringBuilder(
            "### MXNet handles (NDArray, symbol, executor) made "
                + "through Kiln's binding, counted with -D"
                + HandleCounter.PROPERTY
                + "=true (batch "
                + "32, one JVM with a fixed, pre-touched "
                + LEAK_HEAP
                + " heap so that RSS growth is "
                + "native memory)\n\n"
                + "| impl | handles to build, bind and train 1 step | per steady-state step "
                + "| live before → after "
                + leak
                + " more steps | RSS before → after, MiB "
                + "| Java heap committed before → after, MiB | live after close |\n"
                + "|---|---:|---:|---:|---:|---:|---:|\n");
    // A fixed, pre-touched Java heap: RSS growth during the run is then native memory.
    List<String> jvm =
        List.of(
            "-D" + HandleCounter.PROPERTY + "=true",
            "-Xms" + LEAK_HEAP,
            "-Xmx" + LEAK_HEAP,
            "-XX:+AlwaysPreTouch");
    List<Map<String, String>> results =
        child.run(
            jvm,
            List.of(
                "HANDLES",
                "--steps",
                Integer.toString(countSteps),
                "--leak-steps",
                Integer.toString(leak)));
    for (Map<String, String> r : results) {
      if (!r.get("mode").equals("handles")) {
        continue;
      }
      String impl = Impl.of(r.get("impl")).label();
      String closed =
          results.stream()
              .filter(
                  c ->
                      c.get("mode").equals("handles-closed")
                          && Impl.of(c.get("impl")).label().equals(impl))
              .map(c -> c.get("liveAfterClose"))
              .findFirst()
              .orElse("?");
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %.3f (%s in %s steps) | %s → %s " + "| %s → %s | %s → %s | %s |%n",
              impl,
              r.get("setupHandles"),
              Double.parseDouble(r.get("createdInSteps"))
                  / Double.parseDouble(r.get("countedSteps")),
              r.get("createdInSteps"),
              r.get("countedSteps"),
              r.get("liveBefore"),
              r.get("liveAfter"),
              mib(r.get("rssBeforeKib")),
              mib(r.get("rssAfterKib")),
              mib(r.get("heapBeforeKib")),
              mib(r.get("heapAfterKib")),
              closed));
    }
    return s.toString();
  }

  private String rss(ChildJvm child) {
    int steps = quick ? 300 : 3000;
    StringBuilder s =
        new StringBuilder(
            "### Memory of a training run (fresh JVM each, batch "
                + "32, "
                + steps
                + " steps, synthetic data, default JVM heap settings)\n\n| impl "
                + "| RSS at start, MiB | peak RSS (VmHWM), MiB | RSS at end, MiB | Java heap committed "
                + "at end (only touched pages are resident), MiB |\n|---|---:|---:|---:|---:|\n");
    // --quick keeps two fresh JVMs of the four, to stay near 20 seconds.
    List<Impl> impls =
        quick
            ? List.of(Impl.FLOOR, Impl.KILN)
            : List.of(Impl.FLOOR, Impl.KILN, Impl.DJL, Impl.KILN_LOSS);
    for (Impl impl : impls) {
      for (Map<String, String> r :
          child.run(
              List.of(),
              List.of("RSS", "--impl", impl.name(), "--steps", Integer.toString(steps)))) {
        s.append("| ")
            .append(impl.label())
            .append(" | ")
            .append(mib(r.get("startRssKib")))
            .append(" | ")
            .append(mib(r.get("peakRssKib")))
            .append(" | ")
            .append(mib(r.get("endRssKib")))
            .append(" | ")
            .append(mib(r.get("heapCommittedKib")))
            .append(" |\n");
      }
    }
    return s.toString();
  }

  private String profile(ChildJvm child) {
    String steps = quick ? "150,40" : "1000,250";
    String warmup = quick ? "50,10" : "500,100";
    int n = quick ? 2 : Math.max(reps, 15);
    Map<String, Map<Integer, List<Double>>> wall = new LinkedHashMap<>();
    Map<String, Map<Integer, List<Double>>> cpu = new LinkedHashMap<>();
    Map<String, Map<Integer, List<Double>>> driver = new LinkedHashMap<>();
    for (String variant : BenchWorker.profileVariants().keySet()) {
      wall.put(variant, new TreeMap<>());
      cpu.put(variant, new TreeMap<>());
      driver.put(variant, new TreeMap<>());
    }
    Map<String, Map<Integer, List<Double>>> stages = new LinkedHashMap<>();
    for (Map<String, String> r :
        child.run(
            List.of(),
            List.of(
                "PROFILE",
                "--batch-sizes",
                "32,256",
                "--steps",
                steps,
                "--warmup",
                warmup,
                "--reps",
                Integer.toString(n)))) {
      if (r.get("mode").equals("stage")) {
        stages
            .computeIfAbsent(r.get("stage").replace('_', ' '), st -> new TreeMap<>())
            .computeIfAbsent(Integer.parseInt(r.get("batch")), b -> new ArrayList<>())
            .add(Double.parseDouble(r.get("seconds")) * 1e6 / Double.parseDouble(r.get("steps")));
        continue;
      }
      int batch = Integer.parseInt(r.get("batch"));
      double stepCount = Double.parseDouble(r.get("steps"));
      wall.get(r.get("variant"))
          .computeIfAbsent(batch, b -> new ArrayList<>())
          .add(Double.parseDouble(r.get("seconds")) * 1e6 / stepCount);
      cpu.get(r.get("variant"))
          .computeIfAbsent(batch, b -> new ArrayList<>())
          .add(Double.parseDouble(r.get("cpuSeconds")) * 1e6 / stepCount);
      driver
          .get(r.get("variant"))
          .computeIfAbsent(batch, b -> new ArrayList<>())
          .add(Double.parseDouble(r.get("driverCpuSeconds")) * 1e6 / stepCount);
    }
    return "### Where Kiln's time goes: the floor plus one piece of Kiln's work at a time "
        + "(synthetic data, "
        + n
        + " interleaved runs of "
        + steps.replace(",", " / ")
        + " steps at batch 32 / 256; one JVM)\n\n"
        + ProfileTable.format(wall, cpu, driver)
        + "\nThe floor's step stage by stage, MXNet made synchronous after each stage "
        + "(wall µs per step, median of "
        + n
        + " runs):\n\n"
        + stageTable(stages)
        + engineTable(child, steps, warmup);
  }

  /**
   * MXNet's own count of C API calls and engine operators per step ({@link EngineProfile}) for
   * Kiln, Kiln without the gradient check and the kernels' limit, at batch 32 and 256.
   */
  private static String engineTable(ChildJvm child, String steps, String warmup) {
    // (section, name) -> "impl@batch" -> {calls, µs} per step
    Map<String, Map<String, double[]>> rows = new LinkedHashMap<>();
    List<String> columns = new ArrayList<>();
    for (Map<String, String> r :
        child.run(
            List.of(),
            List.of("ENGINE", "--batch-sizes", "32,256", "--steps", steps, "--warmup", warmup))) {
      String name = URLDecoder.decode(r.get("name"), StandardCharsets.UTF_8);
      if (name.startsWith("MXNet C API")) {
        continue; // the profiler's own totals
      }
      String column = Impl.valueOf(r.get("impl")).label() + " @" + r.get("batch");
      if (!columns.contains(column)) {
        columns.add(column);
      }
      rows.computeIfAbsent(r.get("section") + " | " + name, k -> new LinkedHashMap<>())
          .put(
              column,
              new double[] {
                Double.parseDouble(r.get("perStep")), Double.parseDouble(r.get("microsPerStep"))
              });
    }
    StringBuilder out =
        new StringBuilder(
            "\nMXNet's own profiler (aggregate statistics, every operator) over the same steps"
                + " after the same warm-up, one loop at a time: calls into MXNet's C API and"
                + " operators run on its engine per step, and their µs per step (a C API"
                + " call's time is the calling thread's, a wait's included; an operator's is the"
                + " engine's):\n\n"
                + "| section | name");
    columns.forEach(c -> out.append(" | ").append(c));
    out.append(" |\n|---|---").append("|---:".repeat(columns.size())).append("|\n");
    rows.forEach(
        (row, byColumn) -> {
          out.append("| ").append(row);
          for (String c : columns) {
            double[] v = byColumn.get(c);
            out.append(
                v == null ? " | –" : String.format(Locale.ROOT, " | %.2f (%.1f µs)", v[0], v[1]));
          }
          out.append(" |\n");
        });
    return out.toString();
  }

  private static String stageTable(Map<String, Map<Integer, List<Double>>> stages) {
    TreeSet<Integer> batches = new TreeSet<>();
    stages.values().forEach(m -> batches.addAll(m.keySet()));
    StringBuilder s = new StringBuilder("| stage");
    batches.forEach(b -> s.append(" | µs @").append(b));
    s.append(" |\n|---").append("|---:".repeat(batches.size())).append("|\n");
    Map<Integer, Double> total = new TreeMap<>();
    stages.forEach(
        (stage, byBatch) -> {
          s.append("| ").append(stage);
          for (int b : batches) {
            double m = Stats.median(byBatch.get(b));
            total.merge(b, m, Double::sum);
            s.append(String.format(Locale.ROOT, " | %.0f", m));
          }
          s.append(" |\n");
        });
    s.append("| total");
    total.values().forEach(t -> s.append(String.format(Locale.ROOT, " | %.0f", t)));
    return s.append(" |\n").toString();
  }

  /**
   * The data-parallel rows, kept in place for the distribution layer ({@code
   * runtime/.../dist/DataParallel}), which is being written: not measured yet.
   */
  /** {@code bench dist}'s tables: 2 CPU contexts against 1, and dist_sync jobs on loopback. */
  private String dataParallel() {
    try {
      return "### Data-parallel training\n\n"
          + DistBench.report(
              data, quick, childClassPath != null ? childClassPath : ProgramClassPath.get());
    } catch (Exception e) {
      throw new IllegalStateException("the data-parallel part failed: " + e.getMessage(), e);
    }
  }

  /**
   * The inference part ({@link InferenceBench}) in a child JVM of its own, with this run's OpenMP
   * threads: its report is the section.
   */
  private String inference(String classpath) {
    List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dai.djl.offline=true");
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=error");
    command.addAll(List.of("-cp", classpath, Bench.class.getName(), "inference"));
    command.addAll(
        List.of("--rounds", Integer.toString(Math.min(reps, 5)), "--data", data.toString()));
    if (quick) {
      command.add("--quick");
    }
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
    if (ompThreads > 0) {
      builder.environment().put("OMP_NUM_THREADS", Integer.toString(ompThreads));
    }
    builder.environment().putIfAbsent("MXNET_SUBGRAPH_VERBOSE", "0");
    try {
      Process p = builder.start();
      String text =
          new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      if (!p.waitFor(900, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        throw new IllegalStateException("bench inference failed:\n" + text);
      }
      return text.strip();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The first three fields of {@code /proc/loadavg}, or "?" off Linux. */
  static String loadavg() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  private String compile(String classpath) {
    CompileTimer.Result r =
        new CompileTimer(classpath, System.err).measure(quick ? 30 : 300, quick ? 1 : 5);
    return "### Annotation processor compile time (javac in one JVM, after one warm-up compile "
        + "of each variant)\n\n"
        + CompileTimer.format(r);
  }

  private String freeDims(String classpath) {
    CompileTimer.FreeDimResult r =
        new CompileTimer(classpath, System.err).measureFreeDims(quick ? 30 : 300, quick ? 1 : reps);
    return "### Processor time with free dimensions (javac -proc:only in one JVM, after one "
        + "warm-up run of each model; rounds alternate their order)\n\n"
        + CompileTimer.format(r);
  }

  private static String mib(String kib) {
    long k = Long.parseLong(kib);
    return k < 0 ? "?" : Long.toString(Math.round(k / 1024.0));
  }

  private static boolean onClassPath(String classpath) {
    try {
      Path self =
          Path.of(Bench.class.getProtectionDomain().getCodeSource().getLocation().toURI())
              .toAbsolutePath()
              .normalize();
      for (String entry : classpath.split(java.io.File.pathSeparator)) {
        if (!entry.isEmpty() && Path.of(entry).toAbsolutePath().normalize().equals(self)) {
          return true;
        }
      }
      return false;
    } catch (URISyntaxException | RuntimeException e) {
      return false;
    }
  }

  /** A line on the machine, the date and the thread settings the measurements run with. */
  private String machine() {
    String cpu = "unknown CPU";
    long memKib = -1;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          cpu = line.substring(line.indexOf(':') + 1).trim();
          break;
        }
      }
      memKib = ProcStatus.field(Files.readString(Path.of("/proc/meminfo")), "MemTotal");
    } catch (IOException | RuntimeException e) {
      // Not Linux: leave the machine description short.
    }
    String callerOmp = System.getenv("OMP_NUM_THREADS");
    return String.format(
        Locale.ROOT,
        "Kiln benchmark, %s%s%n"
            + "machine: %s, %d cores (nproc), %s; %s %s on %s; /proc/loadavg at the start: %s%n"
            + "measured JVMs: OMP_NUM_THREADS=%s (fixed by --omp-threads; caller's: %s), one Java "
            + "thread driving MXNet, MXNET_ENGINE_TYPE=%s%n",
        LocalDate.now(),
        quick ? " (--quick: smoke run, numbers not meaningful)" : "",
        cpu,
        Runtime.getRuntime().availableProcessors(),
        memKib < 0 ? "unknown memory" : Math.round(memKib / 1048576.0) + " GiB",
        System.getProperty("java.vm.name"),
        System.getProperty("java.version"),
        System.getProperty("os.name"),
        loadavg(),
        ompThreads == 0 ? "unset (Kiln's default, OmpThreads)" : ompThreads,
        callerOmp == null ? "unset" : callerOmp,
        System.getenv().getOrDefault("MXNET_ENGINE_TYPE", "default (ThreadedEnginePerDevice)"));
  }
}
