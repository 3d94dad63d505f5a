package dev.kiln.differential;

import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The differential suite: every kept regression model and a slice of random models (see {@link
 * ModelGenerator}) compiled with the Kiln processor and checked on MXNet ({@link ModelRun}), then
 * all of them once more in a second JVM without oneDNN ({@link SecondJvm}).
 *
 * <p>System properties (the module's pom passes Maven properties of the same names): {@code
 * kiln.differential.models} (default 100) random models from seed {@code
 * kiln.differential.firstSeed} (default 1) on, or the seeds listed in {@code
 * kiln.differential.seeds} (comma-separated); {@code kiln.differential.regressions=false} leaves
 * the regression models out; {@code kiln.differential.onnxModels} (default 12) random ONNX models
 * ({@link OnnxModelGenerator}) from the first seed on; {@code kiln.differential.workDir} for the
 * files (default {@code target/differential}). {@code -Dkiln.differential.models=0} runs the
 * regression models alone.
 *
 * <p>Besides the test reports, the work folder holds {@code results.txt} (one line per check as it
 * finishes), {@code running.txt} (the model being checked, with its source: what MXNet was running
 * if it killed the JVM), {@code failed/<name>/} (the sources of every failing model), {@code
 * summary.txt} (timings) and {@code second-jvm.log}.
 */
class DifferentialTest {
  private static final String FIRST_SEED = "kiln.differential.firstSeed";
  private static final String MODELS = "kiln.differential.models";
  private static final String SEEDS = "kiln.differential.seeds";
  private static final String REGRESSIONS = "kiln.differential.regressions";
  private static final String ONNX_MODELS = "kiln.differential.onnxModels";

  /** The seeds this run draws. */
  static long[] seeds() {
    String listed = System.getProperty(SEEDS, "").trim();
    if (!listed.isEmpty()) {
      return Stream.of(listed.split(",")).map(String::trim).mapToLong(Long::parseLong).toArray();
    }
    long first = Long.getLong(FIRST_SEED, 1L);
    int count = Integer.getInteger(MODELS, 100);
    return LongStream.range(first, first + count).toArray();
  }

  /** The seeds of the random ONNX models this run draws ({@link OnnxModelGenerator}). */
  static long[] onnxSeeds() {
    long first = Long.getLong(FIRST_SEED, 1L);
    return LongStream.range(first, first + Integer.getInteger(ONNX_MODELS, 12)).toArray();
  }

  static Path workDir() {
    return Path.of(System.getProperty("kiln.differential.workDir", "target/differential"));
  }

  @TestFactory
  Stream<DynamicNode> differential() {
    Path work = workDir();
    clean(work);
    Path classes = work.resolve("classes");
    List<ModelCase> cases = new ArrayList<>();
    if (Boolean.parseBoolean(System.getProperty(REGRESSIONS, "true"))) {
      cases.addAll(Regressions.all());
    }
    for (long seed : seeds()) {
      cases.add(ModelGenerator.generate(seed));
    }
    for (long seed : onnxSeeds()) {
      cases.add(OnnxModelGenerator.generate(seed));
    }
    List<SecondJvm.Job> jobs = new ArrayList<>();
    Map<String, String> skipped = new java.util.LinkedHashMap<>();
    long start = System.nanoTime();
    Stream<DynamicNode> models =
        cases.stream()
            .map(
                c -> {
                  ModelRun run = new ModelRun(c, work.resolve("models").resolve(c.name()), classes);
                  List<Map.Entry<String, Runnable>> steps = run.steps();
                  List<DynamicNode> tests = new ArrayList<>();
                  for (int i = 0; i < steps.size(); i++) {
                    Map.Entry<String, Runnable> step = steps.get(i);
                    boolean last = i == steps.size() - 1;
                    boolean first = i == 0;
                    tests.add(
                        dynamicTest(
                            step.getKey(),
                            () -> {
                              if (first) {
                                // If MXNet kills the JVM, this says which model it was running.
                                System.out.println("differential: checking " + c.label());
                                write(work.resolve("running.txt"), c.label() + "\n" + c.listing());
                              }
                              String outcome = "FAIL";
                              try {
                                run.run(step.getKey(), step.getValue());
                                outcome = "PASS";
                              } catch (TestAbortedException e) {
                                outcome = "SKIP";
                                throw e;
                              } finally {
                                append(
                                    work.resolve("results.txt"),
                                    outcome + "\t" + c.label() + "\t" + step.getKey() + "\n");
                                if (last) {
                                  if (run.job() != null) {
                                    jobs.add(run.job());
                                  } else if (run.secondJvmSkip() != null) {
                                    skipped.put(c.label(), run.secondJvmSkip());
                                  }
                                  run.close();
                                }
                              }
                            }));
                  }
                  return dynamicContainer(c.label(), tests.stream());
                });
    Stream<DynamicNode> second =
        Stream.of(0).flatMap(x -> secondJvm(jobs, skipped, work, classes, start, cases.size()));
    return Stream.concat(models, second);
  }

  /** Runs the second JVM over every job and turns its results into one test per model. */
  private static Stream<DynamicNode> secondJvm(
      List<SecondJvm.Job> jobs,
      Map<String, String> skipped,
      Path work,
      Path classes,
      long start,
      int models) {
    double mainSeconds = (System.nanoTime() - start) / 1e9;
    SecondJvm.Outcome outcome = jobs.isEmpty() ? null : SecondJvm.run(jobs, work, classes);
    String summary =
        String.format(
            java.util.Locale.ROOT,
            "%d models checked in %.1f s in this " + "JVM; second JVM (MKLDNN off) %s%n",
            models,
            mainSeconds,
            outcome == null
                ? "not run"
                : String.format(
                    java.util.Locale.ROOT,
                    "%.1f s, exit %d",
                    outcome.took().toMillis() / 1e3,
                    outcome.exitCode()));
    System.out.print(summary);
    write(work.resolve("summary.txt"), summary);
    List<DynamicNode> tests = new ArrayList<>();
    Path results = work.resolve("results.txt");
    tests.add(
        dynamicTest(
            "second JVM ran to the end",
            () -> {
              if (outcome == null) {
                throw new TestAbortedException("no model got as far as a checkpoint");
              }
              if (outcome.timedOut()
                  || outcome.exitCode() != 0
                  || !outcome.log().contains("second JVM finished, MKLDNN off")) {
                throw new AssertionFailedError(
                    "the second JVM (MXNET_MKLDNN_ENABLED=0) "
                        + (outcome.timedOut() ? "timed out" : "exited with " + outcome.exitCode())
                        + "; its log:\n"
                        + tail(outcome.log()));
              }
            }));
    for (SecondJvm.Job job : jobs) {
      tests.add(
          dynamicTest(
              job.model().label(),
              () -> {
                String verdict = "FAIL";
                try {
                  compare(job);
                  verdict = "PASS";
                } finally {
                  append(results, verdict + "\t" + job.model().label() + "\t7 MKLDNN off\n");
                }
              }));
    }
    for (Map.Entry<String, String> s : skipped.entrySet()) {
      append(results, "SKIP\t" + s.getKey() + "\t7 MKLDNN off\n");
      tests.add(
          dynamicTest(
              s.getKey(),
              () -> {
                throw new TestAbortedException(
                    s.getKey() + ": not run in the second JVM, " + s.getValue());
              }));
    }
    return Stream.of(
        dynamicContainer("7 same results with MKLDNN off (second JVM)", tests.stream()));
  }

  private static void compare(SecondJvm.Job job) {
    String label = job.model().label() + ", check '7 MKLDNN off (second JVM)': ";
    Path error = SecondJvm.errorFile(job);
    if (Files.exists(error)) {
      keep(job.model());
      throw new AssertionFailedError(
          label
              + "the second JVM failed on it:\n"
              + read(error)
              + "\n\nFull source:\n"
              + job.model().listing());
    }
    if (!Files.exists(job.result())) {
      keep(job.model());
      throw new AssertionFailedError(
          label
              + "the second JVM wrote no result (crashed or timed "
              + "out before it)\n\nFull source:\n"
              + job.model().listing());
    }
    Map<String, ArrayFile.Array> actual = ArrayFile.read(job.result());
    double outputScale = 0;
    double gradientScale = 0;
    for (Map.Entry<String, ArrayFile.Array> e : job.expected().entrySet()) {
      double m = Compare.maxAbs(e.getValue().values());
      if (e.getKey().startsWith("out:") || e.getKey().startsWith("train:")) {
        outputScale = Math.max(outputScale, m);
      } else {
        gradientScale = Math.max(gradientScale, m);
      }
    }
    // A saturated softmax output makes every gradient rounding noise down to this level.
    double gradientAtol = SecondJvm.GRADIENT_ATOL;
    Map<String, ArrayFile.Array> inputs = ArrayFile.read(job.inputs());
    for (Map.Entry<String, Integer> s : job.softmaxAxes().entrySet()) {
      ArrayFile.Array probs = job.expected().get("train:" + s.getKey());
      ArrayFile.Array heads = inputs.get("head:'" + s.getKey() + "'");
      if (probs != null && heads != null) {
        gradientAtol = Math.max(gradientAtol, SecondJvm.softmaxNoise(probs, heads, s.getValue()));
      }
    }
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, ArrayFile.Array> e : job.expected().entrySet()) {
      ArrayFile.Array a = actual.get(e.getKey());
      if (a == null) {
        problems.add(e.getKey() + ": missing");
        continue;
      }
      boolean output = e.getKey().startsWith("out:") || e.getKey().startsWith("train:");
      String diff =
          output
              ? Compare.closeMostly(
                  e.getValue().values(),
                  a.values(),
                  SecondJvm.OUTPUT_RTOL,
                  SecondJvm.OUTPUT_ATOL,
                  outputScale,
                  SecondJvm.OUTLIERS,
                  SecondJvm.OUTLIER_FACTOR)
              : Compare.closeMostly(
                  e.getValue().values(),
                  a.values(),
                  SecondJvm.GRADIENT_RTOL,
                  gradientAtol,
                  gradientScale,
                  SecondJvm.OUTLIERS,
                  SecondJvm.OUTLIER_FACTOR);
      if (diff != null) {
        problems.add(
            e.getKey()
                + (output ? " (output)" : " (gradient, atol " + (float) gradientAtol + ")")
                + ": "
                + diff);
      }
    }
    if (!problems.isEmpty()) {
      keep(job.model());
      throw new AssertionFailedError(
          label
              + "MKLDNN on (this JVM) and off (second JVM) "
              + "disagree:\n"
              + String.join("\n", problems)
              + "\n\nFull source:\n"
              + job.model().listing());
    }
  }

  /** Writes a failing model's sources to {@code failed/<name>/}, as {@link ModelRun} does. */
  private static void keep(ModelCase c) {
    for (Map.Entry<String, String> e : c.sources().entrySet()) {
      String simple = e.getKey().substring(e.getKey().lastIndexOf('.') + 1);
      write(workDir().resolve("failed").resolve(c.name()).resolve(simple + ".java"), e.getValue());
    }
  }

  private static String tail(String log) {
    return log.length() <= 6000 ? log : "..." + log.substring(log.length() - 6000);
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void write(Path p, String text) {
    try {
      Files.createDirectories(p.getParent());
      Files.writeString(p, text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void append(Path p, String text) {
    try {
      Files.createDirectories(p.getParent());
      Files.writeString(
          p,
          text,
          java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void clean(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
