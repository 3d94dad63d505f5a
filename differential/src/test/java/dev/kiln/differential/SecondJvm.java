package dev.kiln.differential;

import ai.djl.ndarray.NDManager;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Check 7: the same inference outputs and the same gradients must come out of a second JVM in which
 * MXNet runs without oneDNN ({@code MXNET_MKLDNN_ENABLED=0}: MXNet's own CPU kernels, an
 * independent implementation). One child JVM per test run processes every model: it is given the
 * class files, each model's checkpoint, inputs and head gradients through files, runs {@link
 * #compute} on each ({@link Worker}) and writes the results beside them, under a timeout.
 */
final class SecondJvm {
  /** Outputs agree within this (relative, and times the largest magnitude). */
  static final double OUTPUT_RTOL = 1e-3;

  static final double OUTPUT_ATOL = 1e-4;

  /** Gradients sum more terms in other orders; a little more slack. */
  static final double GRADIENT_RTOL = 2e-3;

  static final double GRADIENT_ATOL = 3e-4;

  /**
   * At most this fraction of an array's values (at least one) may miss the tolerance, by at most
   * {@link #OUTLIER_FACTOR} times (see {@link Compare#closeMostly}).
   */
  static final double OUTLIERS = 0.01;

  static final double OUTLIER_FACTOR = 10;

  /**
   * How far two correct softmax kernels may round a probability apart: two units in the last place
   * of a float just below 1 (seed 25: oneDNN's softmax was 1.7 of them below the exact value,
   * MXNet's own, which sums in double, a third above).
   */
  static final double PROBABILITY_ROUNDING = 0x1p-22;

  /**
   * One model for the second JVM.
   *
   * @param model the case
   * @param checkpoint the checkpoint prefix to load
   * @param inputs the file with {@code input:<name>} and {@code head:<output>} arrays
   * @param mxSeed MXNet's seed before the training-mode pass
   * @param result where the second JVM writes its results ({@code .error} beside it if it fails)
   * @param expected this JVM's results
   * @param dropout whether the model has dropout (masks come from MXNet's generator)
   * @param softmaxAxes the model's outputs that are a softmax, with its axis as written
   */
  record Job(
      ModelCase model,
      Path checkpoint,
      Path inputs,
      int mxSeed,
      Path result,
      Map<String, ArrayFile.Array> expected,
      boolean dropout,
      Map<String, Integer> softmaxAxes) {}

  /** How the child JVM ended. */
  record Outcome(int exitCode, boolean timedOut, String log, Duration took) {}

  private SecondJvm() {}

  /**
   * What both JVMs compute for a loaded model: {@code out:<name>} inference outputs, then one
   * training-mode forward pass with MXNet seeded by {@code mxSeed} and its backward pass with
   * {@code heads}: {@code ingrad:<input>} and {@code grad:<param>} for every trainable parameter.
   */
  static Map<String, ArrayFile.Array> compute(
      DiffModel m, NDManager nd, Feeds.Arrays inputs, Feeds.Arrays heads, int mxSeed) {
    Map<String, ArrayFile.Array> r = new LinkedHashMap<>();
    m.setTraining(false);
    Feeds.Arrays out = Feeds.forward(m, nd, inputs);
    List<String> outputs = m.outputNames();
    for (int k = 0; k < out.count(); k++) {
      r.put("out:" + outputs.get(k), new ArrayFile.Array(out.shapes()[k], out.values()[k]));
    }
    m.setTraining(true);
    DiffModel.seedMxnet(mxSeed);
    Feeds.Arrays trained = Feeds.forward(m, nd, inputs);
    for (int k = 0; k < trained.count(); k++) {
      r.put(
          "train:" + outputs.get(k), new ArrayFile.Array(trained.shapes()[k], trained.values()[k]));
    }
    Feeds.Arrays grads = Feeds.backward(m, nd, heads);
    List<String> names = m.inputNames();
    for (int i = 0; i < grads.count(); i++) {
      r.put("ingrad:" + names.get(i), new ArrayFile.Array(grads.shapes()[i], grads.values()[i]));
    }
    for (String p : m.paramNames()) {
      if (!m.isFrozen(p)) {
        float[] g = m.grad(p);
        r.put("grad:" + p, new ArrayFile.Array(new int[] {g.length}, g));
      }
    }
    m.setTraining(false);
    return r;
  }

  /**
   * Runs the child JVM over {@code jobs} with the test's class path plus {@code classes}; its
   * output goes to {@code work/second-jvm.log}.
   */
  static Outcome run(List<Job> jobs, Path work, Path classes) {
    try {
      Path list = work.resolve("second-jvm-jobs.txt");
      List<String> lines = new ArrayList<>();
      for (Job j : jobs) {
        lines.add(
            String.join(
                "\t",
                j.model().modelInterface(),
                j.checkpoint().toString(),
                j.inputs().toString(),
                Integer.toString(j.mxSeed()),
                j.result().toString()));
        Files.deleteIfExists(j.result());
        Files.deleteIfExists(errorFile(j));
      }
      Files.write(list, lines);
      String classPath =
          System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      ProcessBuilder pb =
          new ProcessBuilder(
              java,
              "-cp",
              classes + File.pathSeparator + classPath,
              "-Dai.djl.offline=true",
              "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
              Worker.class.getName(),
              list.toString());
      pb.environment().put("MXNET_MKLDNN_ENABLED", "0");
      pb.environment().put("OMP_NUM_THREADS", "1");
      pb.environment().put("OPT_OUT_TRACKING", "true");
      Path log = work.resolve("second-jvm.log");
      pb.redirectErrorStream(true).redirectOutput(log.toFile());
      Duration limit = Duration.ofSeconds(120 + 10L * jobs.size());
      long start = System.nanoTime();
      Process p = pb.start();
      boolean done = p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
      if (!done) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      return new Outcome(done ? p.exitValue() : -1, !done, Files.readString(log), took);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * The gradient tolerance, relative to the largest gradient, below which a saturated softmax
   * output makes the gradients rounding noise: its backward {@code p * (h - sum(p * h))} is about
   * {@code (1 - p) * h} for a probability {@code p} near 1, but a kernel's rounding of {@code p}
   * moves it by {@link #PROBABILITY_ROUNDING} times {@code |h| + |sum(p * h)|}, and every gradient
   * is linear in it. 0 when no output is a softmax; negligible unless one is within about 1e-3 of
   * 1.
   *
   * @param probs the softmax output ({@code train:} pass) of this JVM
   * @param heads its head gradient
   * @param axis the softmax axis as written (negative from the end)
   */
  static double softmaxNoise(ArrayFile.Array probs, ArrayFile.Array heads, int axis) {
    int[] shape = probs.shape();
    int a = axis < 0 ? axis + shape.length : axis;
    int inner = 1;
    for (int d = a + 1; d < shape.length; d++) {
      inner *= shape[d];
    }
    int n = shape[a];
    int outer = probs.values().length / (n * inner);
    float[] p = probs.values();
    float[] h = heads.values();
    double noise = 0;
    double signal = 0;
    for (int o = 0; o < outer; o++) {
      for (int i = 0; i < inner; i++) {
        int base = o * n * inner + i;
        double dot = 0;
        for (int j = 0; j < n; j++) {
          dot += (double) p[base + j * inner] * h[base + j * inner];
        }
        for (int j = 0; j < n; j++) {
          int at = base + j * inner;
          signal = Math.max(signal, Math.abs(p[at] * (h[at] - dot)));
          noise = Math.max(noise, PROBABILITY_ROUNDING * (Math.abs(h[at]) + Math.abs(dot)));
        }
      }
    }
    return signal == 0 ? 0 : noise / signal;
  }

  /** Where the child writes why a job failed. */
  static Path errorFile(Job j) {
    return j.result().resolveSibling(j.result().getFileName() + ".error");
  }

  /**
   * The main class of the second JVM: for every line of the job list, loads the model from its
   * checkpoint, runs {@link #compute} and writes the results (or the error).
   */
  static final class Worker {
    private Worker() {}

    /** {@code args[0]}: the job list written by {@link #run}. */
    public static void main(String[] args) throws IOException {
      if (!"0".equals(System.getenv("MXNET_MKLDNN_ENABLED"))) {
        System.err.println("MXNET_MKLDNN_ENABLED is not 0; refusing to run");
        System.exit(2);
      }
      ClassLoader loader = Worker.class.getClassLoader();
      int failed = 0;
      try (NDManager nd = NDManager.newBaseManager()) {
        for (String line : Files.readAllLines(Path.of(args[0]))) {
          String[] f = line.split("\t");
          Path result = Path.of(f[4]);
          try (DiffModel m = DiffModel.load(loader, f[0], Path.of(f[1]))) {
            Map<String, ArrayFile.Array> in = ArrayFile.read(Path.of(f[2]));
            Feeds.Arrays inputs = arrays(in, "input:");
            Feeds.Arrays heads = arrays(in, "head:");
            ArrayFile.write(result, compute(m, nd, inputs, heads, Integer.parseInt(f[3])));
            System.out.println("done " + f[0]);
          } catch (RuntimeException | Error e) {
            failed++;
            java.io.StringWriter w = new java.io.StringWriter();
            e.printStackTrace(new java.io.PrintWriter(w));
            Files.writeString(result.resolveSibling(result.getFileName() + ".error"), w.toString());
            System.out.println("failed " + f[0] + ": " + e);
          }
        }
      }
      System.out.println("second JVM finished, MKLDNN off, " + failed + " failed");
    }

    private static Feeds.Arrays arrays(Map<String, ArrayFile.Array> all, String prefix) {
      List<ArrayFile.Array> picked =
          all.entrySet().stream()
              .filter(e -> e.getKey().startsWith(prefix))
              .map(Map.Entry::getValue)
              .toList();
      float[][] v = new float[picked.size()][];
      int[][] s = new int[picked.size()][];
      for (int i = 0; i < v.length; i++) {
        v[i] = picked.get(i).values();
        s[i] = picked.get(i).shape();
      }
      return new Feeds.Arrays(v, s);
    }
  }
}
