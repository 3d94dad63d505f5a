package dev.kiln.bench;

import dev.kiln.runtime.data.Batch;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.data.DatasetNotFoundException;
import dev.kiln.runtime.data.FashionMnist;
import dev.kiln.runtime.exec.FiniteCheck;
import dev.kiln.runtime.mxnet.HandleCounter;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.serving.LoadTest;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The part of the benchmark that runs in a child JVM started by {@link Bench}, so that every
 * measurement sees fixed thread settings and, where it matters, a fresh process. Results go to
 * standard output as {@link BenchLine}s, progress to standard error.
 */
@Command(
    name = "worker",
    hidden = true,
    description = "Runs one measurement of the benchmark (started by 'bench').")
public final class BenchWorker implements Callable<Integer> {
  private static final int FEATURES = FashionMnist.FEATURE_SIZE;
  private static final long SEED = 0;

  /** What to measure. */
  enum Mode {
    /** Interleaved steps per second of every implementation and batch size. */
    THROUGHPUT,
    /** Time from JVM start to the first trained batch of one implementation. */
    FIRST_BATCH,
    /** Kiln's MXNet handles per step and live handles before and after many steps. */
    HANDLES,
    /** Peak resident memory of one implementation's training run. */
    RSS,
    /** The floor with Kiln's extra work added piece by piece, against Kiln itself. */
    PROFILE,
    /** MXNet's own count of C API calls and engine operators per step ({@link EngineProfile}). */
    ENGINE
  }

  /** The loops {@link Mode#ENGINE} counts, in column order. */
  static final List<Impl> ENGINE_IMPLS =
      List.of(Impl.KILN, Impl.KILN_NO_CHECK, Impl.FWD_BWD_NO_COPY);

  @Parameters(
      index = "0",
      description = "THROUGHPUT, FIRST_BATCH, HANDLES, RSS, PROFILE or ENGINE.")
  Mode mode;

  @Option(
      names = "--impl",
      description = "floor, kiln or djl (FIRST_BATCH, RSS).",
      defaultValue = "kiln")
  String impl;

  @Option(names = "--data", defaultValue = "/usr/share/datasets/fashion-mnist")
  Path data;

  @Option(
      names = "--plan",
      split = ",",
      description =
          "THROUGHPUT: what to time, as "
              + "workload:batch:steps:warmup entries (e.g. mlp:32:1000:300).",
      defaultValue = "mlp:32:1000:300,mlp:256:300:60")
  List<String> plan;

  @Option(
      names = "--batch-sizes",
      split = ",",
      description = "PROFILE, ENGINE: MLP batch sizes.",
      defaultValue = "32,256")
  int[] batchSizes;

  @Option(
      names = "--steps",
      split = ",",
      description =
          "Steps per timed run, one per batch "
              + "size (PROFILE, ENGINE), or steps of the run (HANDLES, RSS).",
      defaultValue = "4000,1000")
  int[] steps;

  @Option(
      names = "--warmup",
      split = ",",
      description = "PROFILE, ENGINE: warm-up steps per batch size.",
      defaultValue = "500,100")
  int[] warmup;

  @Option(names = "--reps", defaultValue = "5")
  int reps;

  @Option(
      names = "--impls",
      split = ",",
      description = "THROUGHPUT: only these implementations of each workload (default: all).")
  Set<Impl> impls;

  @Option(names = "--leak-steps", defaultValue = "20000")
  int leakSteps;

  /** Entry point of the child JVM's measurement. */
  @Override
  public Integer call() throws IOException {
    long entryMillis = System.currentTimeMillis();
    switch (mode) {
      case THROUGHPUT -> {
        return throughput();
      }
      case FIRST_BATCH -> firstBatch(entryMillis);
      case HANDLES -> handles();
      case RSS -> rss();
      case PROFILE -> profile();
      case ENGINE -> engine();
      default -> throw new IllegalStateException(mode.toString());
    }
    return 0;
  }

  /** One row of the throughput plan: a workload at a batch size, its steps and warm-up. */
  record Planned(Workload workload, int batch, int steps, int warmup) {
    /** Parses {@code workload:batch:steps:warmup}. */
    static Planned parse(String entry) {
      String[] p = entry.split(":");
      if (p.length != 4) {
        throw new IllegalArgumentException(
            "plan entry '" + entry + "' is not " + "workload:batch:steps:warmup");
      }
      return new Planned(
          Workload.of(p[0]),
          Integer.parseInt(p[1]),
          Integer.parseInt(p[2]),
          Integer.parseInt(p[3]));
    }
  }

  private int throughput() throws IOException {
    List<Planned> rows = plan.stream().map(Planned::parse).toList();
    Dataset train;
    try {
      train = FashionMnist.load(data).train();
    } catch (DatasetNotFoundException e) {
      System.err.println(e.getMessage());
      return 1;
    }
    List<Pool> pools = new ArrayList<>();
    List<Map<Impl, TrainLoop>> loops = new ArrayList<>();
    try {
      for (Planned row : rows) {
        pools.add(Pool.of(train, row.batch(), SEED));
        Map<Impl, TrainLoop> byImpl = new EnumMap<>(Impl.class);
        loops.add(byImpl);
        for (Impl i : Impl.of(row.workload())) {
          if (impls == null || impls.contains(i)) {
            byImpl.put(i, i.open(row.workload(), row.batch(), SEED));
          }
        }
      }
      for (int k = 0; k < rows.size(); k++) {
        for (TrainLoop loop : loops.get(k).values()) {
          run(loop, pools.get(k), rows.get(k).warmup());
        }
      }
      for (int rep = 1; rep <= reps; rep++) {
        StringBuilder progress = new StringBuilder("round " + rep + "/" + reps + ":");
        for (int k = 0; k < rows.size(); k++) {
          Planned row = rows.get(k);
          List<Impl> impls = new ArrayList<>(loops.get(k).keySet());
          for (int j = 0; j < impls.size(); j++) {
            // Rotate the order every round so no implementation always runs first.
            Impl i = impls.get((j + rep) % impls.size());
            Timing t = timed(loops.get(k).get(i), pools.get(k), row.steps());
            System.out.println(
                BenchLine.format(
                    "mode",
                    "throughput",
                    "workload",
                    row.workload().label(),
                    "impl",
                    i.name(),
                    "batch",
                    row.batch(),
                    "rep",
                    rep,
                    "steps",
                    row.steps(),
                    "seconds",
                    t.wallSeconds(),
                    "cpuSeconds",
                    t.cpuSeconds(),
                    "waitSeconds",
                    t.waitSeconds()));
            progress.append(
                String.format(
                    Locale.ROOT,
                    "  %s@%d %s %.0f/s",
                    row.workload().label(),
                    row.batch(),
                    i.label(),
                    row.steps() / t.wallSeconds()));
          }
        }
        System.err.println(progress);
      }
      for (int k = 0; k < rows.size(); k++) {
        if (loops.get(k).containsKey(Impl.KILN_NO_CHECK)) {
          System.out.println(
              BenchLine.format(
                  "mode",
                  "input-check",
                  "workload",
                  rows.get(k).workload().label(),
                  "batch",
                  rows.get(k).batch(),
                  "micros",
                  inputCheckMicros(pools.get(k))));
        }
      }
    } finally {
      loops.forEach(m -> m.values().forEach(TrainLoop::close));
    }
    return 0;
  }

  /**
   * Microseconds per batch of the checks a classifier makes of every training batch in Java before
   * it reaches MXNet (every feature finite, every label a class), as {@code Classifier.checkBatch}
   * makes them: the best of five passes over the pool's batches.
   */
  static double inputCheckMicros(Pool pool) {
    double best = Double.MAX_VALUE;
    long sink = 0;
    for (int pass = 0; pass < 6; pass++) {
      int n = 2000;
      long t = System.nanoTime();
      for (int i = 0; i < n; i++) {
        Batch b = pool.next();
        sink += FiniteCheck.firstNonFinite(b.features());
        for (int label : b.labels()) {
          if (label < 0 || label >= FashionMnist.NUM_CLASSES) {
            sink++;
          }
        }
      }
      double micros = (System.nanoTime() - t) / 1e3 / n;
      if (pass > 0) {
        best = Math.min(best, micros); // the first pass warms the JIT up
      }
    }
    if (sink != -12000) {
      throw new IllegalStateException(
          "a benchmark batch holds a non-finite feature or a bad " + "label");
    }
    return best;
  }

  /**
   * Steps per second of the floor plus each piece of work Kiln's {@code trainBatch} adds, all of
   * them together, and Kiln, interleaved like the throughput runs.
   */
  private void profile() {
    Map<String, Set<FloorLoop.Extra>> variants = profileVariants();
    List<String> names = new ArrayList<>(variants.keySet());
    Map<Integer, Map<String, TrainLoop>> loops = new LinkedHashMap<>();
    Map<Integer, Pool> pools = new LinkedHashMap<>();
    try {
      for (int k = 0; k < batchSizes.length; k++) {
        int b = batchSizes[k];
        pools.put(b, Pool.synthetic(b, 16, SEED));
        Map<String, TrainLoop> byName = new LinkedHashMap<>();
        loops.put(b, byName);
        for (String name : names) {
          byName.put(
              name,
              variants.get(name) == null
                  ? new KilnLoop(Workload.MLP, SEED, KilnLoop.Mode.LOSS)
                  : new FloorLoop(
                      FloorApi.shared(), FloorNet.MLP, b, SEED, true, variants.get(name)));
          run(byName.get(name), pools.get(b), warmup[k]);
        }
      }
      for (int rep = 1; rep <= reps; rep++) {
        for (int k = 0; k < batchSizes.length; k++) {
          int b = batchSizes[k];
          for (int j = 0; j < names.size(); j++) {
            String name = names.get((j + rep) % names.size());
            Timing t = timed(loops.get(b).get(name), pools.get(b), steps[k]);
            System.out.println(
                BenchLine.format(
                    "mode",
                    "profile",
                    "variant",
                    name,
                    "batch",
                    b,
                    "rep",
                    rep,
                    "steps",
                    steps[k],
                    "seconds",
                    t.wallSeconds(),
                    "cpuSeconds",
                    t.cpuSeconds(),
                    "driverCpuSeconds",
                    t.driverCpuSeconds()));
          }
        }
        System.err.println("profile rep " + rep + "/" + reps + " done");
      }
      for (int k = 0; k < batchSizes.length; k++) {
        int b = batchSizes[k];
        FloorLoop floor = (FloorLoop) loops.get(b).get("floor");
        for (int rep = 1; rep <= reps; rep++) {
          long[] nanos = new long[FloorLoop.STAGES.length];
          for (int n = 0; n < steps[k]; n++) {
            Batch x = pools.get(b).next();
            floor.stepStaged(x.features(), x.labels(), nanos);
          }
          for (int st = 0; st < nanos.length; st++) {
            System.out.println(
                BenchLine.format(
                    "mode",
                    "stage",
                    "stage",
                    FloorLoop.STAGES[st].replace(' ', '_'),
                    "batch",
                    b,
                    "rep",
                    rep,
                    "steps",
                    steps[k],
                    "seconds",
                    nanos[st] / 1e9));
          }
        }
      }
    } finally {
      loops.values().forEach(m -> m.values().forEach(TrainLoop::close));
    }
  }

  /**
   * For each batch size and each of {@link #ENGINE_IMPLS}: warm-up steps, then MXNet's own profiler
   * over the timed steps; one line per C API function and operator, per step. Every loop is bound
   * and warmed up before the profiler first runs: an executor bound while MXNet's aggregate
   * statistics are configured runs its operators one by one instead of in bulk.
   */
  private void engine() {
    Map<String, TrainLoop> loops = new LinkedHashMap<>();
    Map<Integer, Pool> pools = new LinkedHashMap<>();
    try {
      for (int k = 0; k < batchSizes.length; k++) {
        int b = batchSizes[k];
        pools.put(b, Pool.synthetic(b, 16, SEED));
        for (Impl impl : ENGINE_IMPLS) {
          TrainLoop loop = impl.open(Workload.MLP, b, SEED);
          loops.put(impl.name() + "@" + b, loop);
          run(loop, pools.get(b), warmup[k]);
        }
      }
      for (int k = 0; k < batchSizes.length; k++) {
        int b = batchSizes[k];
        int n = steps[k];
        for (Impl impl : ENGINE_IMPLS) {
          TrainLoop loop = loops.get(impl.name() + "@" + b);
          Map<String, EngineProfile.Entry> stats =
              EngineProfile.measure(() -> run(loop, pools.get(b), n));
          for (EngineProfile.Entry e : stats.values()) {
            System.out.println(
                BenchLine.format(
                    "mode",
                    "engine",
                    "impl",
                    impl.name(),
                    "batch",
                    b,
                    "section",
                    e.section(),
                    "name",
                    // A line's values hold no spaces: MXNet's names do ("MXNet C API Calls").
                    java.net.URLEncoder.encode(e.name(), java.nio.charset.StandardCharsets.UTF_8),
                    "perStep",
                    (double) e.count() / n,
                    "microsPerStep",
                    e.millis() * 1000 / n));
          }
        }
      }
    } finally {
      loops.values().forEach(TrainLoop::close);
    }
  }

  /**
   * The loops {@link Mode#PROFILE} compares, in order: the floor, the floor with each {@link
   * FloorLoop.Extra}, with all of them, and Kiln (mapped to null).
   */
  static Map<String, Set<FloorLoop.Extra>> profileVariants() {
    Map<String, Set<FloorLoop.Extra>> variants = new LinkedHashMap<>();
    variants.put("floor", EnumSet.noneOf(FloorLoop.Extra.class));
    for (FloorLoop.Extra e : FloorLoop.Extra.values()) {
      variants.put("floor+" + e.name().toLowerCase(Locale.ROOT), EnumSet.of(e));
    }
    variants.put("floor+all", EnumSet.allOf(FloorLoop.Extra.class));
    variants.put("kiln", null);
    return variants;
  }

  /** Runs {@code n} steps and waits for MXNet to finish them; returns the seconds taken. */
  private static double run(TrainLoop loop, Pool pool, int n) {
    return timed(loop, pool, n).wallSeconds();
  }

  /**
   * Wall-clock time, process CPU time (all threads, MXNet's engine included; Linux counts it in 10
   * ms ticks) and the CPU time of the Java thread that drives MXNet, of {@code n} steps.
   */
  /**
   * One timed run: wall-clock time, the process's CPU time, the driving thread's CPU time and the
   * time the process's threads spent waiting for a core ({@link ProcStatus#runQueueWaitNanos}).
   */
  record Timing(
      double wallSeconds, double cpuSeconds, double driverCpuSeconds, double waitSeconds) {}

  private static Timing timed(TrainLoop loop, Pool pool, int n) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long waited = ProcStatus.runQueueWaitNanos();
    long cpu = LoadTest.processCpuNanos();
    long driver = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    for (int s = 0; s < n; s++) {
      Batch b = pool.next();
      loop.step(b.features(), b.labels());
    }
    loop.sync();
    long wall = System.nanoTime() - start;
    return new Timing(
        wall / 1e9,
        (LoadTest.processCpuNanos() - cpu) / 1e9,
        (threads.getCurrentThreadCpuTime() - driver) / 1e9,
        (ProcStatus.runQueueWaitNanos() - waited) / 1e9);
  }

  /**
   * Time from JVM start to the first trained MLP batch at batch 32, in phases: loading libmxnet
   * (for DJL split into starting its MXNet engine and the rest), building and binding, and the
   * first step until MXNet finished it. The floor loads the library the cheapest way it can ({@link
   * FloorApi#direct()}); Kiln finds the same file itself, also without DJL's engine.
   */
  private void firstBatch(long entryMillis) {
    Impl which = Impl.of(impl);
    long jvmStart = ManagementFactory.getRuntimeMXBean().getStartTime();
    Batch b = Pool.synthetic(32, 1, SEED).next();
    long t0 = System.nanoTime();
    long engine = 0;
    FloorApi floorApi = null;
    if (which == Impl.FLOOR) {
      floorApi = FloorApi.direct();
    } else if (which == Impl.DJL) {
      ai.djl.engine.Engine.getEngine("MXNet");
      engine = System.nanoTime();
      Mx.api();
    } else {
      Mx.api();
    }
    long loaded = System.nanoTime();
    TrainLoop loop =
        which == Impl.FLOOR
            ? new FloorLoop(floorApi, FloorNet.MLP, 32, SEED, true)
            : which.open(Workload.MLP, 32, SEED);
    try (loop) {
      long built = System.nanoTime();
      loop.step(b.features(), b.labels());
      loop.sync();
      long done = System.nanoTime();
      long doneMillis = System.currentTimeMillis();
      System.out.println(
          BenchLine.format(
              "mode",
              "first-batch",
              "impl",
              which.name(),
              "mainMs",
              entryMillis - jvmStart,
              "firstBatchMs",
              doneMillis - jvmStart,
              "engineMs",
              engine == 0 ? 0 : (engine - t0) / 1e6,
              "loadMs",
              (loaded - t0) / 1e6,
              "buildMs",
              (built - loaded) / 1e6,
              "stepMs",
              (done - built) / 1e6));
    }
  }

  private void handles() {
    if (!HandleCounter.enabled()) {
      throw new IllegalStateException("run with -D" + HandleCounter.PROPERTY + "=true");
    }
    int countSteps = steps[0];
    Pool pool = Pool.synthetic(32, 16, SEED);
    for (Impl which : new Impl[] {Impl.KILN, Impl.FLOOR}) {
      long created0 = HandleCounter.created();
      long live0 = HandleCounter.live();
      try (TrainLoop loop = which.open(Workload.MLP, 32, SEED)) {
        run(loop, pool, 1);
        long setup = HandleCounter.created() - created0;
        run(loop, pool, 200);
        long before = HandleCounter.created();
        run(loop, pool, countSteps);
        long inSteps = HandleCounter.created() - before;
        System.err.println(
            "leak check: " + leakSteps + " " + which.label() + " steps at batch 32 ...");
        Memory m0 = Memory.now();
        long liveBefore = HandleCounter.live();
        run(loop, pool, leakSteps);
        long liveAfter = HandleCounter.live();
        Memory m1 = Memory.now();
        System.out.println(
            BenchLine.format(
                "mode",
                "handles",
                "impl",
                which.name(),
                "setupHandles",
                setup,
                "countedSteps",
                countSteps,
                "createdInSteps",
                inSteps,
                "leakSteps",
                leakSteps,
                "liveBefore",
                liveBefore - live0,
                "liveAfter",
                liveAfter - live0,
                "rssBeforeKib",
                m0.rssKib(),
                "rssAfterKib",
                m1.rssKib(),
                "heapBeforeKib",
                m0.heapCommittedKib(),
                "heapAfterKib",
                m1.heapCommittedKib()));
      }
      System.out.println(
          BenchLine.format(
              "mode",
              "handles-closed",
              "impl",
              which.name(),
              "liveAfterClose",
              HandleCounter.live() - live0));
    }
  }

  /** Resident memory and the Java heap's committed size, after a full collection. */
  record Memory(long rssKib, long heapCommittedKib) {
    static Memory now() {
      System.gc();
      return new Memory(
          ProcStatus.rssKib(),
          ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() / 1024);
    }
  }

  private void rss() {
    Impl which = Impl.of(impl);
    long atStart = ProcStatus.rssKib();
    Pool pool = Pool.synthetic(32, 16, SEED);
    long afterData = ProcStatus.rssKib();
    try (TrainLoop loop =
        which == Impl.FLOOR
            ? new FloorLoop(FloorApi.direct(), FloorNet.MLP, 32, SEED, true)
            : which.open(Workload.MLP, 32, SEED)) {
      run(loop, pool, steps[0]);
      System.out.println(
          BenchLine.format(
              "mode",
              "rss",
              "impl",
              which.name(),
              "steps",
              steps[0],
              "startRssKib",
              atStart,
              "dataRssKib",
              afterData,
              "endRssKib",
              ProcStatus.rssKib(),
              "peakRssKib",
              ProcStatus.peakRssKib(),
              "heapCommittedKib",
              ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted() / 1024));
    }
  }

  /** A fixed set of batches handed out round-robin, so that no step pays for making one. */
  static final class Pool {
    private final List<Batch> batches;
    private int next;

    private Pool(List<Batch> batches) {
      this.batches = batches;
    }

    /** Up to 64 shuffled batches of {@code size} from {@code data}. */
    static Pool of(Dataset data, int size, long seed) {
      List<Batch> list = new ArrayList<>();
      for (Batch b : data.batches(size, true, seed)) {
        if (b.size() == size) {
          list.add(b);
        }
        if (list.size() == 64) {
          break;
        }
      }
      return new Pool(list);
    }

    /** {@code count} batches of uniform pixels in [0, 1) and uniform labels. */
    static Pool synthetic(int size, int count, long seed) {
      SplittableRandom rng = new SplittableRandom(seed);
      List<Batch> list = new ArrayList<>();
      for (int n = 0; n < count; n++) {
        float[] x = new float[size * FEATURES];
        int[] y = new int[size];
        for (int i = 0; i < x.length; i++) {
          x[i] = (float) rng.nextDouble();
        }
        for (int i = 0; i < size; i++) {
          y[i] = rng.nextInt(FashionMnist.NUM_CLASSES);
        }
        list.add(new Batch(x, y));
      }
      return new Pool(list);
    }

    /** The next batch, cycling. */
    Batch next() {
      Batch b = batches.get(next);
      next = (next + 1) % batches.size();
      return b;
    }
  }
}
