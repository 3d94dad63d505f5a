package dev.kiln.runtime.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The save/load soak of the suite: a round (one training step, a save, a load into a second model)
 * may leave at most 512 bytes of native memory behind. Measured in a child JVM ({@link
 * SaveLoadRounds}) as glibc's bytes in use less what the JVM itself has malloc'd (Native Memory
 * Tracking), after a collection, with one glibc arena so that arena caching stays out; the growth
 * per round is the Theil-Sen slope (the median of the slopes between every two samples), which a
 * collection's or a compilation's passing swing does not move. A control run that leaks 1,024 bytes
 * a round on purpose must be caught by the same measure.
 */
class SaveLoadLeakTest {
  private static final int EVERY = 100;
  private static final double LIMIT = 512;

  /** One sample: the round, native bytes in use outside the JVM's own, live MXNet handles. */
  private record Sample(int round, long nativeBytes, long handles) {}

  /**
   * The samples of {@code rounds} rounds that leak {@code leak} bytes each, less the first {@code
   * warmUp} (the first rounds compile, bind and fill pools).
   */
  private static List<Sample> run(int rounds, int warmUp, int leak)
      throws IOException, InterruptedException {
    Path dir = Path.of("/dev/shm");
    if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
      dir = Path.of(System.getProperty("java.io.tmpdir"));
    }
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xms256m",
            "-Xmx256m",
            "-XX:+AlwaysPreTouch",
            "-XX:NativeMemoryTracking=summary",
            "-Dai.djl.offline=true",
            "-Dkiln.mx.countHandles=true",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
            "-cp",
            System.getProperty("java.class.path"),
            SaveLoadRounds.class.getName(),
            Integer.toString(rounds),
            Integer.toString(EVERY),
            Integer.toString(leak),
            dir.toString());
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("OMP_NUM_THREADS", "1");
    pb.environment().put("OPT_OUT_TRACKING", "true");
    pb.environment().put("MALLOC_ARENA_MAX", "1");
    pb.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process p = pb.start();
    List<String> lines;
    try (var in = p.inputReader(StandardCharsets.UTF_8)) {
      lines = in.lines().toList();
    } finally {
      if (!p.waitFor(240, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    assertEquals(0, p.exitValue(), "the soak's child failed: " + lines);
    List<Sample> samples = new ArrayList<>();
    for (String line : lines) {
      String[] f = line.split(" ");
      if (f[0].equals("sample")) {
        long jvm = Long.parseLong(f[3]);
        assertTrue(jvm > 0, "Native Memory Tracking gave no figure: " + line);
        samples.add(
            new Sample(Integer.parseInt(f[1]), Long.parseLong(f[2]) - jvm, Long.parseLong(f[4])));
      }
    }
    assertEquals(rounds / EVERY + 1, samples.size(), lines.toString());
    return samples.subList(warmUp, samples.size());
  }

  /** The median of the slopes between every two samples, in bytes per round. */
  static double theilSen(List<Sample> samples) {
    List<Double> slopes = new ArrayList<>();
    for (int i = 0; i < samples.size(); i++) {
      for (int j = i + 1; j < samples.size(); j++) {
        Sample a = samples.get(i);
        Sample b = samples.get(j);
        slopes.add((double) (b.nativeBytes() - a.nativeBytes()) / (b.round() - a.round()));
      }
    }
    double[] s = slopes.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  @Test
  void aRoundOfTrainSaveAndLoadLeavesAtMost512BytesBehind() throws Exception {
    List<Sample> samples = run(1500, 5, 0);
    double slope = theilSen(samples);
    assertTrue(
        slope < LIMIT,
        String.format(
            "native memory grows %.0f bytes a round (limit %.0f): %s", slope, LIMIT, samples));
    long handles = samples.get(0).handles();
    assertTrue(handles > 0, samples.toString());
    for (Sample s : samples) {
      assertEquals(handles, s.handles(), "live MXNet handles changed: " + samples);
    }
    List<Sample> leaking = run(700, 2, 1024);
    double leaked = theilSen(leaking);
    assertTrue(
        leaked >= LIMIT && leaked < 4 * 1024,
        String.format(
            "the control run leaks 1,024 bytes a round; the soak measured %.0f: %s",
            leaked, leaking));
    System.out.printf(
        "save/load soak: %.0f bytes a round without a leak, %.0f with 1,024 leaked on purpose%n",
        slope, leaked);
  }
}
