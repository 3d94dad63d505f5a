package dev.kiln.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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

  /** The compiling thread's CPU time in the last {@link #compile}, in milliseconds. */
  private double lastCpuMillis;

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

  /**
   * The processor's time ({@code -proc:only}: parsing and the processor) on a model with free
   * dimensions and on the same model with constants ({@link FreeDimModelSource}), in milliseconds
   * per round, and the ratio free over fixed taken round by round: wall-clock time, and the
   * compiling thread's CPU time, which a loaded machine disturbs less (javac runs in the calling
   * thread; the JIT's and the collector's threads are not counted).
   *
   * @param generatedFiles the files the processor wrote for the free model
   */
  record FreeDimResult(
      int nodes,
      int generatedFiles,
      List<Double> free,
      List<Double> fixed,
      List<Double> ratios,
      List<Double> freeCpu,
      List<Double> fixedCpu,
      List<Double> cpuRatios) {}

  /** The processor's target: free dimensions cost at most this times the constants' time. */
  static final double FREE_DIM_TARGET = 1.5;

  /**
   * Runs the processor once on each of the two {@code nodes}-node models to warm up, then {@code
   * reps} rounds of one run each, their order alternating from round to round.
   */
  FreeDimResult measureFreeDims(int nodes, int reps) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException("no system Java compiler: run the benchmark on a JDK");
    }
    try (ScratchDir scratch = ScratchDir.create("kiln-free-dim-bench")) {
      Path dir = scratch.path();
      Path src = dir.resolve("src/" + FreeDimModelSource.PACKAGE.replace('.', '/'));
      Files.createDirectories(src);
      Path[] files = new Path[2];
      for (int i = 0; i < 2; i++) {
        boolean free = i == 0;
        files[i] = src.resolve(FreeDimModelSource.name(nodes, free) + ".java");
        Files.writeString(files[i], FreeDimModelSource.source(nodes, free), StandardCharsets.UTF_8);
      }
      int run = 0;
      for (Path f : files) {
        compile(javac, f, dir.resolve("run" + run++), Variant.PROC_ONLY);
      }
      int generated;
      try (Stream<Path> gen = Files.walk(dir.resolve("run0/gen"))) {
        generated = (int) gen.filter(p -> p.toString().endsWith(".java")).count();
      }
      List<Double> free = new ArrayList<>();
      List<Double> fixed = new ArrayList<>();
      List<Double> ratios = new ArrayList<>();
      List<Double> freeCpu = new ArrayList<>();
      List<Double> fixedCpu = new ArrayList<>();
      List<Double> cpuRatios = new ArrayList<>();
      for (int rep = 0; rep < reps; rep++) {
        double[] ms = new double[2];
        double[] cpu = new double[2];
        for (int j = 0; j < 2; j++) {
          int i = (j + rep) % 2;
          ms[i] = compile(javac, files[i], dir.resolve("run" + run++), Variant.PROC_ONLY);
          cpu[i] = lastCpuMillis;
        }
        free.add(ms[0]);
        fixed.add(ms[1]);
        ratios.add(ms[0] / ms[1]);
        freeCpu.add(cpu[0]);
        fixedCpu.add(cpu[1]);
        cpuRatios.add(cpu[0] / cpu[1]);
      }
      return new FreeDimResult(nodes, generated, free, fixed, ratios, freeCpu, fixedCpu, cpuRatios);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The free-dimension result as a Markdown table, with the target. */
  static String format(FreeDimResult r) {
    return String.format(
        Locale.ROOT,
        "| processor (-proc:only) on a %d-node model | wall ms | thread CPU ms |%n"
            + "|---|---:|---:|%n"
            + "| free H, W (@FreeDim) | %s | %s |%n| constants | %s | %s |%n"
            + "| free / constants, round by round | %s | %s |%n%n"
            + "Median (min–max) over rounds. Target: at most %.1f. The free model's processor "
            + "wrote %d files.%n",
        r.nodes(),
        ThroughputTable.cell(r.free()),
        ThroughputTable.cell(r.freeCpu()),
        ThroughputTable.cell(r.fixed()),
        ThroughputTable.cell(r.fixedCpu()),
        ThroughputTable.cell(r.ratios(), "%.2f"),
        ThroughputTable.cell(r.cpuRatios(), "%.2f"),
        FREE_DIM_TARGET,
        r.generatedFiles());
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
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpuStart = threads.getCurrentThreadCpuTime();
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
    lastCpuMillis = (threads.getCurrentThreadCpuTime() - cpuStart) / 1e6;
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
