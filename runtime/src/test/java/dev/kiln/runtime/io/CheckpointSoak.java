package dev.kiln.runtime.io;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Structure;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.HandleCounter;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The save/load soak: a 784-128-10 classifier-sized model trains one step, saves its checkpoint and
 * loads it into a second model, {@code steps} times (default 20,000), and every 500 steps the
 * process's resident set (RSS), glibc's own account of its heap ({@code mallinfo2}: bytes in use,
 * and bytes held including free ones), the Java heap after a GC, direct buffers, open files,
 * threads and (with {@code -Dkiln.mx.countHandles=true}) live MXNet handles are sampled. It prints
 * the samples and the least-squares slope of each over the second half of the run, in KiB per 1,000
 * steps, then calls {@code malloc_trim(0)} and prints the RSS again. Growth in RSS that glibc
 * counts as free (held, not in use) and that {@code malloc_trim} returns is glibc's arena caching,
 * not a leak; growth in bytes in use, handles, files or the Java heap would be one. Run it from the
 * worktree root (about 4 minutes on 2 cores):
 *
 * <pre>
 * mvn -B -q -o -pl runtime test-compile exec:exec -Dexec.executable=java \
 *   -Dexec.classpathScope=test -Dexec.args="-Xms256m -Xmx256m -XX:+AlwaysPreTouch \
 *   -XX:NativeMemoryTracking=summary -Dai.djl.offline=true -Dkiln.mx.countHandles=true \
 *   -cp %classpath dev.kiln.runtime.io.CheckpointSoak 20000"
 * </pre>
 *
 * (The fixed, pre-touched heap keeps the JVM's heap sizing out of the RSS: each step makes about a
 * megabyte of garbage, and a growing heap would show as RSS growth.)
 *
 * <p>with {@code OMP_NUM_THREADS=1 OPT_OUT_TRACKING=true} in the environment, once as it is and
 * once with {@code MALLOC_ARENA_MAX=1}. A second argument {@code io} leaves out the training step
 * (only save and load).
 */
final class CheckpointSoak {
  private static final int EVERY = 500;

  private CheckpointSoak() {}

  /** glibc's {@code struct mallinfo2}: all {@code size_t}. */
  @Structure.FieldOrder({
    "arena",
    "ordblks",
    "smblks",
    "hblks",
    "hblkhd",
    "usmblks",
    "fsmblks",
    "uordblks",
    "fordblks",
    "keepcost"
  })
  public static final class MallInfo extends Structure implements Structure.ByValue {
    /** Bytes of the non-mmapped heap obtained from the system (all arenas). */
    public long arena;

    /** Free chunks. */
    public long ordblks;

    /** Free fastbin chunks. */
    public long smblks;

    /** Mmapped regions. */
    public long hblks;

    /** Bytes in mmapped regions. */
    public long hblkhd;

    /** Unused. */
    public long usmblks;

    /** Bytes in free fastbin chunks. */
    public long fsmblks;

    /** Bytes in use (allocated, not mmapped). */
    public long uordblks;

    /** Bytes free in the heap. */
    public long fordblks;

    /** Releasable from the top of the heap. */
    public long keepcost;
  }

  /** The two glibc calls. */
  interface Libc extends Library {
    /** Heap statistics summed over every arena. */
    MallInfo mallinfo2();

    /** Gives free memory back to the system; 1 if some was. */
    int malloc_trim(long pad);
  }

  private static Graph graph() {
    GraphBuilder b = new GraphBuilder("Soak");
    Sym x = b.input(new NodeSource("x", "Soak.x()", "@Input"), Shape.of(-1, 784));
    Sym h =
        b.node(
            new NodeSource("hidden", "Soak.hidden()", "@Dense"),
            DenseOp.units(128).activation(Act.RELU),
            x);
    Sym y = b.node(new NodeSource("logits", "Soak.logits()", "@Dense"), DenseOp.units(10), h);
    return b.build(List.of(y));
  }

  private static long status(String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
      }
    }
    return -1;
  }

  private static long openFiles() throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
      return fds.count();
    }
  }

  /** One sample: step, then the measures in {@link #NAMES} order (KiB or counts). */
  private static final String[] NAMES = {
    "rss KiB",
    "malloc in use KiB",
    "malloc held KiB",
    "jvm committed KiB",
    "java heap KiB",
    "direct KiB",
    "open files",
    "threads",
    "mx handles"
  };

  /**
   * What the JVM itself has committed (heap, metaspace, code, threads, GC, ...), from Native Memory
   * Tracking ({@code -XX:NativeMemoryTracking=summary}); -1 without it.
   */
  private static double jvmCommittedKib() {
    try {
      Object out =
          ManagementFactory.getPlatformMBeanServer()
              .invoke(
                  new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
                  "vmNativeMemory",
                  new Object[] {new String[] {"summary"}},
                  new String[] {String[].class.getName()});
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("Total: reserved=(\\d+)KB, committed=(\\d+)KB")
              .matcher(out.toString());
      return m.find() ? Double.parseDouble(m.group(2)) : -1;
    } catch (javax.management.JMException e) {
      return -1;
    }
  }

  private static double[] sample(Libc libc) throws IOException {
    System.gc();
    MallInfo m = libc.mallinfo2();
    long direct = 0;
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        direct = pool.getMemoryUsed();
      }
    }
    Runtime rt = Runtime.getRuntime();
    return new double[] {
      status("VmRSS"),
      (m.uordblks + m.hblkhd) / 1024.0,
      (m.arena + m.hblkhd) / 1024.0,
      jvmCommittedKib(),
      (rt.totalMemory() - rt.freeMemory()) / 1024.0,
      direct / 1024.0,
      openFiles(),
      status("Threads"),
      HandleCounter.enabled() ? HandleCounter.live() : -1
    };
  }

  /** Least-squares slope of {@code y} over {@code x}. */
  private static double slope(List<Double> x, List<Double> y) {
    int n = x.size();
    double mx = x.stream().mapToDouble(d -> d).average().orElse(0);
    double my = y.stream().mapToDouble(d -> d).average().orElse(0);
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < n; i++) {
      sxy += (x.get(i) - mx) * (y.get(i) - my);
      sxx += (x.get(i) - mx) * (x.get(i) - mx);
    }
    return sxx == 0 ? 0 : sxy / sxx;
  }

  /** Runs the soak: arguments {@code [steps] [io]}. */
  public static void main(String[] args) throws Exception {
    int steps = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    boolean train = !(args.length > 1 && args[1].equals("io"));
    Libc libc = Native.load("c", Libc.class);
    Path dir =
        Files.createTempDirectory(
            Path.of(System.getProperty("kiln.soak.dir", System.getProperty("java.io.tmpdir"))),
            "kiln-soak");
    Path prefix = dir.resolve("soak");
    List<Double> at = new ArrayList<>();
    List<double[]> samples = new ArrayList<>();
    long start = System.nanoTime();
    System.out.printf(
        Locale.ROOT,
        "soak: %,d steps of %s, MALLOC_ARENA_MAX=%s%n",
        steps,
        train ? "train + save + load" : "save + load",
        System.getenv("MALLOC_ARENA_MAX"));
    try (ModelRuntime m = new ModelRuntime("SoakModel", graph(), Init.xavier(), 1);
        ModelRuntime mirror = new ModelRuntime("SoakModel", graph(), Init.xavier(), 2);
        NDManager nd = NDManager.newBaseManager()) {
      m.setTraining(true);
      NDArray x = nd.randomNormal(new ai.djl.ndarray.types.Shape(32, 784));
      NDArray dy = nd.ones(new ai.djl.ndarray.types.Shape(32, 10));
      System.out.printf(Locale.ROOT, "%8s %10s", "step", "seconds");
      for (String name : NAMES) {
        System.out.printf(Locale.ROOT, " %18s", name);
      }
      System.out.println();
      for (int step = 0; step <= steps; step++) {
        if (step % EVERY == 0) {
          double[] s = sample(libc);
          at.add((double) step);
          samples.add(s);
          System.out.printf(Locale.ROOT, "%8d %10.1f", step, (System.nanoTime() - start) / 1e9);
          for (double v : s) {
            System.out.printf(Locale.ROOT, " %18.0f", v);
          }
          System.out.println();
        }
        if (step == steps) {
          break;
        }
        if (train) {
          // forward and backward return new arrays of x's manager: the caller closes them.
          for (NDArray out : m.forward(x)) {
            out.close();
          }
          for (NDArray grad : m.backward(dy)) {
            grad.close();
          }
          m.update(1e-6f);
        }
        m.save(prefix);
        mirror.loadParams(prefix);
      }
    }
    int half = at.size() / 2;
    List<Double> xs = at.subList(half, at.size());
    System.out.printf(
        Locale.ROOT,
        "slope over steps %,.0f to %,.0f, per 1,000 steps:%n",
        xs.get(0),
        xs.get(xs.size() - 1));
    for (int k = 0; k < NAMES.length; k++) {
      List<Double> ys = new ArrayList<>();
      for (double[] s : samples.subList(half, samples.size())) {
        ys.add(s[k]);
      }
      double first = samples.get(0)[k];
      double last = samples.get(samples.size() - 1)[k];
      System.out.printf(
          Locale.ROOT,
          "  %-18s %+10.1f   (first %.0f, last %.0f)%n",
          NAMES[k],
          slope(xs, ys) * 1000,
          first,
          last);
    }
    long before = status("VmRSS");
    int trimmed = libc.malloc_trim(0);
    System.out.printf(
        Locale.ROOT,
        "malloc_trim(0) = %d: RSS %,d KiB -> %,d KiB%n",
        trimmed,
        before,
        status("VmRSS"));
    System.out.printf(Locale.ROOT, "took %.0f s%n", (System.nanoTime() - start) / 1e9);
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.delete(f);
      }
    }
    Files.delete(dir);
  }
}
