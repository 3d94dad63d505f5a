package dev.kiln.runtime.mxnet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * How many OpenMP threads MXNet's kernels use in this process, and the one rule that picks it.
 *
 * <p>MXNet (and the libgomp it links, which its oneDNN and OpenBLAS kernels share) reads {@code
 * OMP_NUM_THREADS} once, when the library loads; every engine worker then runs each kernel on a
 * team of that many threads. Nothing called afterwards changes the count of the engine's threads
 * ({@code MXSetNumOMPThreads} sets only the calling thread's). So Kiln decides before it loads
 * libmxnet, in this order:
 *
 * <ol>
 *   <li>{@code OMP_NUM_THREADS} in the environment, as the user set it: MXNet and libgomp read it
 *       as they always do, Kiln changes nothing;
 *   <li>else the system property {@value #PROPERTY} ({@code -Dkiln.mxnet.ompThreads=4});
 *   <li>else {@link #defaultFor(int) half the cores} the JVM may use ({@code
 *       Runtime.availableProcessors()}, which counts the CPUs of the process's affinity mask and
 *       its container's CPU quota), at least 1.
 * </ol>
 *
 * <p>In the last two cases Kiln sets {@code OMP_NUM_THREADS} in the process's environment ({@code
 * setenv}) just before libmxnet loads. Half the cores is MXNet's own default on x86, but MXNet
 * counts every processor the kernel reports, so a container limited to 2 CPUs of a 64-core host
 * would run teams of 32 threads that its quota throttles; and a team as large as the machine leaves
 * no core to the JVM's thread that copies the batches in and pushes the operators, so each team's
 * barrier waits for a thread that the scheduler parked (docs/benchmarks.md, "OpenMP threads",
 * measures this on 2 cores). {@link #inUse()} says what was chosen and why.
 *
 * <p>If something loaded libmxnet before Kiln (DJL's engine started first), it is too late to
 * choose: {@link #inUse()} then says so and reports only an explicit {@code OMP_NUM_THREADS}.
 */
public final class OmpThreads {
  /** The environment variable MXNet and libgomp read when they load. */
  public static final String VARIABLE = "OMP_NUM_THREADS";

  /** The system property that picks the count when {@value #VARIABLE} is unset. */
  public static final String PROPERTY = "kiln.mxnet.ompThreads";

  /** Where the count came from. */
  public enum Source {
    /** {@code OMP_NUM_THREADS} in the environment, left as the user set it. */
    ENVIRONMENT,
    /** The system property {@value OmpThreads#PROPERTY}. */
    PROPERTY,
    /** Kiln's default: half the cores the JVM may use, at least 1. */
    DEFAULT,
    /**
     * MXNet's own default (half the processors the kernel reports): libmxnet was already loaded
     * when Kiln came to choose, or the process has no C library to set the variable with.
     */
    MXNET_DEFAULT
  }

  /**
   * What MXNet uses in this process.
   *
   * @param threads OpenMP threads per kernel, or 0 when unknown ({@link Source#MXNET_DEFAULT}
   *     without {@code OMP_NUM_THREADS}, or a value libgomp does not read as one number)
   * @param source where the count came from
   * @param cores the processors the JVM may use ({@code Runtime.availableProcessors()})
   */
  public record Setting(int threads, Source source, int cores) {
    /** One line for a log or a report, e.g. {@code 1 OpenMP thread (half of 2 cores)}. */
    @Override
    public String toString() {
      String count =
          threads == 0
              ? "unknown OpenMP threads"
              : threads + " OpenMP thread" + (threads == 1 ? "" : "s");
      String why =
          switch (source) {
            case ENVIRONMENT -> VARIABLE + " from the environment";
            case PROPERTY -> "-D" + PROPERTY;
            case DEFAULT -> "half of " + cores + " cores, Kiln's default";
            case MXNET_DEFAULT -> "MXNet's own default: libmxnet was loaded before Kiln chose";
          };
      return count + " per MXNet kernel (" + why + ")";
    }
  }

  private static volatile Setting chosen;

  private OmpThreads() {}

  /**
   * Kiln's default on {@code cores} processors: half of them, at least 1.
   *
   * @param cores the processors the process may use
   * @return the OpenMP threads per kernel
   */
  public static int defaultFor(int cores) {
    return Math.max(1, cores / 2);
  }

  /**
   * The rule above, applied to the given environment, system properties and core count; changes
   * nothing.
   *
   * @throws IllegalArgumentException if the property is not a positive number, or the property and
   *     {@code OMP_NUM_THREADS} are both set and disagree
   */
  static Setting choose(Map<String, String> env, Properties properties, int cores) {
    String variable = env.get(VARIABLE);
    String property = properties.getProperty(PROPERTY);
    Integer fromProperty = property == null ? null : positive(property);
    if (variable != null) {
      int threads = firstNumber(variable);
      if (fromProperty != null && fromProperty != threads) {
        throw new IllegalArgumentException(
            "-D"
                + PROPERTY
                + "="
                + property
                + " and "
                + VARIABLE
                + "="
                + variable
                + " in the environment disagree; set one of them");
      }
      return new Setting(threads, Source.ENVIRONMENT, cores);
    }
    if (fromProperty != null) {
      return new Setting(fromProperty, Source.PROPERTY, cores);
    }
    return new Setting(defaultFor(cores), Source.DEFAULT, cores);
  }

  /**
   * Chooses and, unless the user set {@code OMP_NUM_THREADS}, sets it in the process environment;
   * called by {@link Mx} just before it loads libmxnet.
   */
  static Setting apply() {
    int cores = Runtime.getRuntime().availableProcessors();
    Setting setting = choose(System.getenv(), System.getProperties(), cores);
    if (setting.source() != Source.ENVIRONMENT) {
      if (mxnetLoaded()) {
        setting = new Setting(0, Source.MXNET_DEFAULT, cores);
      } else {
        try {
          LibC.get().setenv(VARIABLE, Integer.toString(setting.threads()), 1);
        } catch (UnsatisfiedLinkError e) {
          // No POSIX C library: MXNet keeps its own default.
          setting = new Setting(0, Source.MXNET_DEFAULT, cores);
        }
      }
    }
    chosen = setting;
    return setting;
  }

  /**
   * What MXNet uses in this process; loads libmxnet first if it is not loaded yet.
   *
   * @return the thread count and where it came from
   */
  public static Setting inUse() {
    Mx.api();
    return chosen;
  }

  /** The count libgomp reads from a value such as {@code 4} or {@code 4,2}; 0 if not a number. */
  private static int firstNumber(String value) {
    String first = value.split(",", -1)[0].trim();
    try {
      int n = Integer.parseInt(first);
      return n > 0 ? n : 0;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static int positive(String property) {
    try {
      int n = Integer.parseInt(property.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "-D" + PROPERTY + " must be a positive number of threads, got '" + property + "'");
  }

  /** Whether a {@code libmxnet} is mapped into this process already (Linux; false elsewhere). */
  private static boolean mxnetLoaded() {
    Path maps = Path.of("/proc/self/maps");
    if (!Files.isReadable(maps)) {
      return false;
    }
    try {
      return new String(Files.readAllBytes(maps), StandardCharsets.ISO_8859_1)
          .contains("/libmxnet.so");
    } catch (IOException e) {
      return false;
    }
  }
}
