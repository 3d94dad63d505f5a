package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.data.IdxFiles;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bench --quick} runs end to end on a tiny Fashion-MNIST-shaped data set: the MLP's
 * throughput part in a child JVM (every implementation, two rounds), its tables, and the kept
 * data-parallel rows. Nothing here is timed.
 */
class BenchQuickTest {
  @TempDir Path dir;

  @Test
  void quickThroughputPrintsEveryTable() throws Exception {
    Path d = Files.createDirectories(dir.resolve("data"));
    int n = 300; // one full batch of 256 and nine of 32
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      labels[i] = i % 10;
    }
    IdxFiles.write(d.resolve("train-images-idx3-ubyte"), IdxFiles.images(n, 28, 28), false);
    IdxFiles.write(d.resolve("train-labels-idx1-ubyte"), IdxFiles.labels(labels), false);
    IdxFiles.write(d.resolve("t10k-images-idx3-ubyte"), IdxFiles.images(10, 28, 28), false);
    IdxFiles.write(
        d.resolve("t10k-labels-idx1-ubyte"), IdxFiles.labels(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), false);
    // Surefire may run tests from a manifest-only jar; its real class path is in this property.
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> tmpBefore = benchTemporaries();
    CommandLine cl = new CommandLine(new Bench());
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    int code;
    try {
      code =
          cl.execute(
              "--quick",
              "--parts",
              "THROUGHPUT,DATA_PARALLEL",
              "--workloads",
              "MLP",
              "--data",
              d.toString(),
              "--child-class-path",
              classpath);
    } finally {
      System.setOut(saved);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, err + text);
    assertTrue(
        text.contains(
            "| workload | batch | floor | fwd+bwd only | fwd+bwd, no copy-in | kiln | kiln+loss "
                + "| kiln, no grad check | kiln, sync copy-in | djl | rounds |"),
        text);
    for (String row : new String[] {"| mlp | 32 | ", "| mlp | 256 | "}) {
      // Steps per second, ratios by wall-clock, the speed targets, ratios by CPU time and the
      // check's cost: a row in each of five tables, printed once.
      assertEquals(5, text.lines().filter(l -> l.startsWith(row)).count(), text);
    }
    assertTrue(
        text.contains("| workload | batch | ratio | median (min–max) | target | median meets it"),
        text);
    assertEquals(
        2,
        text.lines()
            .filter(l -> l.contains("| kiln/fwd+bwd no copy-in | ") && l.contains(" ≥ 0."))
            .count(),
        text);
    assertTrue(
        text.contains(
            "| kiln/floor | kiln/fwd+bwd only | kiln/fwd+bwd no copy-in | kiln/kiln sync copy-in"
                + " | kiln/djl |"),
        text);
    assertTrue(text.contains("| check µs/step | check, % of kiln's step |"), text);
    assertTrue(text.contains("model  batch   1 ctx/s   2 ctx/s   ratio"), text);
    assertTrue(text.contains("model  batch workers  updates    steps/s   examples/s"), text);
    // Two jobs (the optimizer on the workers, on the servers), printed once.
    assertEquals(
        2, text.lines().filter(l -> l.matches("mlp +32 +2 +(workers|servers) .*")).count(), text);
    assertTrue(text.contains("/proc/loadavg before: "), text);
    assertTrue(text.contains("bench finished in "), text);
    assertEquals(tmpBefore, benchTemporaries(), "bench left folders in the temporary folder");
  }

  /** The bench's own folders in the temporary folder. */
  private static List<String> benchTemporaries() throws java.io.IOException {
    try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("kiln-bench") || n.startsWith("kiln-compile-bench"))
          .sorted()
          .toList();
    }
  }
}
