package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.onnx.OnnxBuilder;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import javax.annotation.processing.Completion;
import javax.annotation.processing.ProcessingEnvironment;
import javax.annotation.processing.Processor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An imported file of 1,000 operator nodes (250 residual blocks of convolution, batch norm, ReLU
 * and addition), once as an MXNet symbol file and once as an ONNX file: the processor reads, checks
 * and writes it within two seconds of processor time (CPU time of the compiling thread inside
 * Kiln's processor, which a busy machine does not inflate as it does wall time), and javac compiles
 * what it wrote, no method or constant over the JVM's limits.
 */
class ImportScaleTest {
  /** Residual blocks of four operator nodes each. */
  static final int BLOCKS = 250;

  @TempDir Path dir;

  /** The symbol: MXNet 1.9's format, as MXSymbolSaveToJSON writes it. */
  static String bigSymbol(int blocks) {
    List<String> nodes = new ArrayList<>();
    nodes.add(variable("data"));
    int x = 0;
    for (int b = 0; b < blocks; b++) {
      String p = "stage" + (b / 50) + "_block" + (b % 50) + "_";
      int w = nodes.size();
      nodes.add(variable(p + "conv_weight"));
      nodes.add(variable(p + "conv_bias"));
      int conv = nodes.size();
      nodes.add(
          op(
              "Convolution",
              p + "conv",
              "\"kernel\": \"(3, 3)\", \"pad\": \"(1, 1)\", " + "\"num_filter\": \"8\"",
              x,
              w,
              w + 1));
      int g = nodes.size();
      for (String v : new String[] {"gamma", "beta", "moving_mean", "moving_var"}) {
        nodes.add(variable(p + "bn_" + v));
      }
      int bn = nodes.size();
      nodes.add(
          op("BatchNorm", p + "bn", "\"fix_gamma\": \"False\"", conv, g, g + 1, g + 2, g + 3));
      int relu = nodes.size();
      nodes.add(op("Activation", p + "relu", "\"act_type\": \"relu\"", bn));
      int add = nodes.size();
      nodes.add(op("elemwise_add", p + "add", "", relu, x));
      x = add;
    }
    return "{\n  \"nodes\": [\n    "
        + String.join(",\n    ", nodes)
        + "\n  ],\n  \"heads\": [["
        + x
        + ", 0, 0]],\n  \"attrs\": {\"mxnet_version\": [\"int\", 10901]}\n}\n";
  }

  private static String variable(String name) {
    return "{\"op\": \"null\", \"name\": \"" + name + "\", \"inputs\": []}";
  }

  private static String op(String op, String name, String attrs, int... inputs) {
    List<String> in = new ArrayList<>();
    for (int i : inputs) {
      in.add("[" + i + ", 0, 0]");
    }
    return "{\"op\": \""
        + op
        + "\", \"name\": \""
        + name
        + "\", \"attrs\": {"
        + attrs
        + "}, \"inputs\": ["
        + String.join(", ", in)
        + "]}";
  }

  /**
   * The ONNX file: 250 residual blocks of {@code Conv} (weight and bias initializers), {@code
   * BatchNormalization}, {@code Relu} and {@code Add}, as an exporter writes them.
   */
  static byte[] bigOnnx(int blocks) {
    Random rng = new Random(1000);
    OnnxBuilder b = new OnnxBuilder(13).input("data", "N", 8, 8, 8);
    String x = "data";
    for (int k = 0; k < blocks; k++) {
      String p = "stage" + (k / 50) + ".block" + (k % 50) + ".";
      b.random(p + "conv.weight", rng, 0.1, 8, 8, 3, 3)
          .random(p + "conv.bias", rng, 0.1, 8)
          .random(p + "bn.weight", rng, 0.1, 8)
          .random(p + "bn.bias", rng, 0.1, 8)
          .random(p + "bn.running_mean", rng, 0.1, 8)
          .initializer(p + "bn.running_var", ones(8), 8)
          .node(
              "Conv",
              List.of(x, p + "conv.weight", p + "conv.bias"),
              List.of(p + "conv"),
              OnnxBuilder.ints("pads", 1, 1, 1, 1))
          .node(
              "BatchNormalization",
              List.of(
                  p + "conv",
                  p + "bn.weight",
                  p + "bn.bias",
                  p + "bn.running_mean",
                  p + "bn.running_var"),
              List.of(p + "bn"))
          .node("Relu", List.of(p + "bn"), List.of(p + "relu"))
          .node("Add", List.of(p + "relu", x), List.of(p + "add"));
      x = p + "add";
    }
    return b.output(x, "N", 8, 8, 8).build().toByteArray();
  }

  private static float[] ones(int n) {
    float[] v = new float[n];
    java.util.Arrays.fill(v, 1f);
    return v;
  }

  @Test
  void aThousandNodesAreCheckedWithinTwoSecondsAndCompile() throws IOException {
    Path resources = Files.createDirectories(dir.resolve("resources/good/imported"));
    Files.writeString(resources.resolve("big-symbol.json"), bigSymbol(BLOCKS));
    String graph = compileTimed("BigNet", "a symbol file");
    assertTrue(graph.contains("private void netPart10() {"), "parts of 100 nodes");
    assertTrue(graph.lines().allMatch(l -> l.length() <= 100), "lines of at most 100 columns");
  }

  @Test
  void aThousandOnnxNodesAreCheckedWithinTwoSecondsAndCompile() throws IOException {
    Path resources = Files.createDirectories(dir.resolve("resources/good/imported"));
    Files.write(resources.resolve("big.onnx"), bigOnnx(BLOCKS));
    String graph = compileTimed("BigOnnxNet", "an ONNX file");
    assertTrue(graph.contains("private void netPart10() {"), "parts of 100 nodes");
    assertTrue(graph.lines().allMatch(l -> l.length() <= 100), "lines of at most 100 columns");
  }

  /**
   * Compiles {@code good/imported/<model>} with Kiln's processor timed, asserts the processor took
   * under two seconds of CPU time, and returns the generated graph class's source.
   */
  private String compileTimed(String model, String what) throws IOException {
    Path gen = Files.createDirectories(dir.resolve("gen"));
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Timed kiln = new Timed(new KilnProcessor());
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      JavaCompiler.CompilationTask task =
          javac.getTask(
              null,
              files,
              diagnostics,
              List.of(
                  "-d",
                  classes.toString(),
                  "-s",
                  gen.toString(),
                  "-classpath",
                  dir.resolve("resources")
                      + File.pathSeparator
                      + System.getProperty("java.class.path")),
              null,
              files.getJavaFileObjects(TestCompiler.resource("good/imported/" + model)));
      task.setProcessors(List.of(kiln));
      long start = System.nanoTime();
      boolean ok = task.call();
      long total = System.nanoTime() - start;
      assertTrue(ok, diagnostics.getDiagnostics().toString());
      System.out.printf(
          Locale.ROOT,
          "ImportScaleTest: %d operator nodes from %s: processor %.2f s CPU, javac in all %.2f"
              + " s%n",
          4 * BLOCKS,
          what,
          kiln.nanos / 1e9,
          total / 1e9);
      assertTrue(kiln.nanos < 2_000_000_000L, "the processor took " + kiln.nanos / 1e6 + " ms");
    }
    return Files.readString(gen.resolve("good/imported/" + model + "Graph.java"));
  }

  /** The CPU time of the current thread, in nanoseconds. */
  private static long cpu() {
    return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  /** A processor that times another (CPU time). */
  private static final class Timed implements Processor {
    private final Processor delegate;
    long nanos;

    Timed(Processor delegate) {
      this.delegate = delegate;
    }

    @Override
    public Set<String> getSupportedOptions() {
      return delegate.getSupportedOptions();
    }

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return delegate.getSupportedAnnotationTypes();
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return delegate.getSupportedSourceVersion();
    }

    @Override
    public void init(ProcessingEnvironment env) {
      long start = cpu();
      delegate.init(env);
      nanos += cpu() - start;
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      long start = cpu();
      try {
        return delegate.process(annotations, round);
      } finally {
        nanos += cpu() - start;
      }
    }

    @Override
    public Iterable<? extends Completion> getCompletions(
        Element element, AnnotationMirror annotation, ExecutableElement member, String userText) {
      return delegate.getCompletions(element, annotation, member, userText);
    }
  }
}
