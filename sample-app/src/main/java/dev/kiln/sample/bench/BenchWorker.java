package dev.kiln.sample.bench;

import dev.kiln.runtime.data.Batch;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.mxnet.HandleCounter;
import dev.kiln.sample.data.DatasetNotFoundException;
import dev.kiln.sample.data.FashionMnist;
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
    PROFILE
  }

  @Parameters(index = "0", description = "THROUGHPUT, FIRST_BATCH, HANDLES, RSS or PROFILE.")
  Mode mode;

  @Option(
      names = "--impl",
      description = "floor, kiln or djl (FIRST_BATCH, RSS).",
      defaultValue = "kiln")
  String impl;

  @Option(names = "--data", defaultValue = "/usr/share/datasets/fashion-mnist")
  Path data;

  @Option(names = "--batch-sizes", split = ",", defaultValue = "32,256")
  int[] batchSizes;

  @Option(
      names = "--steps",
      split = ",",
      description =
          "Steps per timed run, one per batch "
              + "size (THROUGHPUT), or steps of the run (HANDLES, RSS).",
      defaultValue = "4000,1000")
  int[] steps;

  @Option(
      names = "--warmup",
      split = ",",
      description = "Warm-up steps per batch size.",
      defaultValue = "500,100")
  int[] warmup;

  @Option(names = "--reps", defaultValue = "5")
  int reps;

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
      default -> throw new IllegalStateException(mode.toString());
    }
    return 0;
  }

  private int throughput() throws IOException {
    if (steps.length != batchSizes.length || warmup.length != batchSizes.length) {
      throw new IllegalArgumentException("--steps and --warmup need one value per batch size");
    }
    Dataset train;
    try {
      train = FashionMnist.load(data).train();
    } catch (DatasetNotFoundException e) {
      System.err.println(e.getMessage());
      return 1;
    }
    Map<Integer, Pool> pools = new LinkedHashMap<>();
    Map<Integer, Map<Impl, TrainLoop>> loops = new LinkedHashMap<>();
    try {
      for (int b : batchSizes) {
        pools.put(b, Pool.of(train, b, SEED));
        Map<Impl, TrainLoop> byImpl = new EnumMap<>(Impl.class);
        loops.put(b, byImpl);
        for (Impl i : Impl.values()) {
          byImpl.put(i, i.open(b, SEED));
        }
      }
      for (int k = 0; k < batchSizes.length; k++) {
        for (Impl i : Impl.values()) {
          run(loops.get(batchSizes[k]).get(i), pools.get(batchSizes[k]), warmup[k]);
        }
      }
      Impl[] impls = Impl.values();
      for (int rep = 1; rep <= reps; rep++) {
        StringBuilder progress = new StringBuilder("rep " + rep + "/" + reps + ":");
        for (int k = 0; k < batchSizes.length; k++) {
          int b = batchSizes[k];
          for (int j = 0; j < impls.length; j++) {
            // Rotate the order every repetition so no implementation always runs first.
            Impl i = impls[(j + rep) % impls.length];
            Timing t = timed(loops.get(b).get(i), pools.get(b), steps[k]);
            double seconds = t.wallSeconds();
            System.out.println(
                BenchLine.format(
                    "mode",
                    "throughput",
                    "impl",
                    i.label(),
                    "batch",
                    b,
                    "rep",
                    rep,
                    "steps",
                    steps[k],
                    "seconds",
                    seconds,
                    "cpuSeconds",
                    t.cpuSeconds()));
            progress.append(
                String.format(Locale.ROOT, "  %s@%d %.0f/s", i.label(), b, steps[k] / seconds));
          }
        }
        System.err.println(progress);
      }
    } finally {
      loops.values().forEach(m -> m.values().forEach(TrainLoop::close));
    }
    return 0;
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
                  ? new KilnLoop(SEED, true)
                  : new FloorLoop(b, SEED, variants.get(name)));
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
  record Timing(double wallSeconds, double cpuSeconds, double driverCpuSeconds) {}

  private static Timing timed(TrainLoop loop, Pool pool, int n) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu = processCpuNanos();
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
        (processCpuNanos() - cpu) / 1e9,
        (threads.getCurrentThreadCpuTime() - driver) / 1e9);
  }

  private static long processCpuNanos() {
    return ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.OperatingSystemMXBean os
        ? os.getProcessCpuTime()
        : 0;
  }

  private void firstBatch(long entryMillis) {
    Impl which = Impl.of(impl);
    Batch b = Pool.synthetic(32, 1, SEED).next();
    try (TrainLoop loop = which.open(32, SEED)) {
      loop.step(b.features(), b.labels());
      loop.sync();
      long done = System.currentTimeMillis();
      long start = ManagementFactory.getRuntimeMXBean().getStartTime();
      System.out.println(
          BenchLine.format(
              "mode",
              "first-batch",
              "impl",
              which.label(),
              "mainMs",
              entryMillis - start,
              "firstBatchMs",
              done - start));
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
      try (TrainLoop loop = which.open(32, SEED)) {
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
                which.label(),
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
              which.label(),
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
    try (TrainLoop loop = which.open(32, SEED)) {
      run(loop, pool, steps[0]);
      System.out.println(
          BenchLine.format(
              "mode",
              "rss",
              "impl",
              which.label(),
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
