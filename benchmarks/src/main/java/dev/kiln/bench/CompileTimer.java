package dev.kiln.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Times {@code javac} (the JDK's {@link JavaCompiler}, in this JVM) on a generated chain model,
 * with the Kiln processor and without it, to find what the processor adds to a build.
 */
final class CompileTimer {
  private static final String PROCESSOR = "dev.kiln.processor.KilnProcessor";

  /** How the model is compiled. */
  enum Variant {
    /** {@code -proc:none}: the interface alone. */
    NONE("-proc:none"),
    /** The Kiln processor, then the interface and the three generated classes. */
    PROCESSOR("with processor"),
    /** {@code -proc:only}: parsing and the processor, nothing compiled. */
    PROC_ONLY("-proc:only");

    private final String label;

    Variant(String label) {
      this.label = label;
    }

    String label() {
      return label;
    }
  }

  /** Milliseconds per variant after one warm-up compile of each, and what was generated. */
  record Result(
      int nodes, int generatedFiles, long generatedLines, Map<Variant, List<Double>> warm) {}

  private final String classpath;
  private final PrintStream log;

  /** A timer compiling against {@code classpath}, which must hold the Kiln jars. */
  CompileTimer(String classpath, PrintStream log) {
    this.classpath = classpath;
    this.log = log;
  }

  /**
   * Compiles a chain of {@code nodes} nodes once per variant to warm the compiler up, then {@code
   * reps} times per variant, interleaved.
   */
  Result measure(int nodes, int reps) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("no system Java compiler: run the benchmark on a JDK");
    }
    try (ScratchDir scratch = ScratchDir.create("kiln-compile-bench")) {
      Path dir = scratch.path();
      Path src = dir.resolve("src/" + DeepModelSource.PACKAGE.replace('.', '/'));
      Files.createDirectories(src);
      Path file = src.resolve(DeepModelSource.name(nodes) + ".java");
      Files.writeString(file, DeepModelSource.source(nodes, 32), StandardCharsets.UTF_8);
      Map<Variant, List<Double>> warm = new EnumMap<>(Variant.class);
      int run = 0;
      int generated = 0;
      long lines = 0;
      for (Variant v : Variant.values()) {
        compile(javac, file, dir.resolve("run" + run++), v);
      }
      Variant[] order = Variant.values();
      for (int rep = 0; rep < reps; rep++) {
        for (int j = 0; j < order.length; j++) {
          Variant v = order[(j + rep) % order.length];
          Path out = dir.resolve("run" + run++);
          warm.computeIfAbsent(v, k -> new ArrayList<>()).add(compile(javac, file, out, v));
          if (v == Variant.PROCESSOR && generated == 0) {
            try (Stream<Path> gen = Files.walk(out.resolve("gen"))) {
              List<Path> files = gen.filter(p -> p.toString().endsWith(".java")).toList();
              generated = files.size();
              for (Path p : files) {
                lines += Files.readAllLines(p).size();
              }
            }
          }
        }
      }
      return new Result(nodes, generated, lines, warm);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private double compile(JavaCompiler javac, Path file, Path out, Variant v) throws IOException {
    Path classes = out.resolve("classes");
    Path gen = out.resolve("gen");
    Files.createDirectories(classes);
    Files.createDirectories(gen);
    List<String> options =
        new ArrayList<>(
            List.of(
                "-classpath",
                classpath,
                "-d",
                classes.toString(),
                "-s",
                gen.toString(),
                "-encoding",
                "UTF-8",
                "-implicit:none",
                "-nowarn"));
    switch (v) {
      case NONE -> options.add("-proc:none");
      case PROCESSOR ->
          options.addAll(List.of("-processorpath", classpath, "-processor", PROCESSOR));
      case PROC_ONLY ->
          options.addAll(
              List.of("-processorpath", classpath, "-processor", PROCESSOR, "-proc:only"));
      default -> throw new IllegalStateException(v.toString());
    }
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    long start = System.nanoTime();
    boolean ok;
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      ok =
          javac
              .getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(file))
              .call();
    }
    double millis = (System.nanoTime() - start) / 1e6;
    if (!ok) {
      throw new IllegalStateException(
          "javac " + v.label() + " failed: " + diagnostics.getDiagnostics());
    }
    log.printf(Locale.ROOT, "  javac %-15s %7.0f ms%n", v.label(), millis);
    return millis;
  }

  /** The result as a Markdown table and one sentence on what the processor adds. */
  static String format(Result r) {
    StringBuilder s = new StringBuilder();
    s.append("| javac on a ")
        .append(r.nodes())
        .append("-node model | ms, median (min–max) " + "|\n|---|---:|\n");
    for (Variant v : Variant.values()) {
      s.append(
          String.format(
              Locale.ROOT, "| %s | %s |%n", v.label(), ThroughputTable.cell(r.warm().get(v))));
    }
    List<Double> none = r.warm().get(Variant.NONE);
    List<Double> full = r.warm().get(Variant.PROCESSOR);
    if (none != null && full != null) {
      s.append(
          String.format(
              Locale.ROOT,
              "%nThe processor adds %.0f ms to the compile (difference "
                  + "of the medians) and writes %d files, %d lines.%n",
              Stats.median(full) - Stats.median(none),
              r.generatedFiles(),
              r.generatedLines()));
    }
    return s.toString();
  }
}
