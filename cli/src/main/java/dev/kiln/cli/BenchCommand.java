package dev.kiln.cli;

import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Predictor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench}: how fast a checkpoint predicts in this process, fused by oneDNN and operator by
 * operator, at each batch size: examples per second and milliseconds per batch over timed rounds.
 * Only Kiln runs; the comparisons with DJL and MXNet's C API are module {@code kiln-benchmarks}'s.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
      "Time a checkpoint's inference-only predictor in this process, fused (oneDNN's pass) and"
          + " unfused, at each --batch-sizes, on random inputs: examples per second and ms per"
          + " batch, median (min-max) over --rounds.",
      "Kiln against DJL and MXNet's C API, training, start-up and serving: the benchmarks module"
          + " (mvn -B -q -pl benchmarks exec:java, docs/benchmarks.md)."
    })
final class BenchCommand implements Callable<Integer> {
  @Mixin CheckpointOptions checkpoint;

  @Option(
      names = "--batch-sizes",
      split = ",",
      paramLabel = "N",
      defaultValue = "1,64",
      description = "Batch sizes to time (default: ${DEFAULT-VALUE}).")
  List<Integer> batchSizes;

  @Option(
      names = "--rounds",
      defaultValue = "5",
      description = "Timed rounds per row (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--millis",
      defaultValue = "500",
      description = "Least time a round runs, in ms (default: ${DEFAULT-VALUE}).")
  int millis;

  @Option(names = "--no-fuse", description = "Time the unfused predictor only.")
  boolean noFuse;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    Values.atLeast(spec, "--rounds", rounds, 1);
    Values.atLeast(spec, "--millis", millis, 1);
    for (int b : batchSizes) {
      Values.atLeast(spec, "--batch-sizes", b, 1);
    }
    List<InferenceOptions> runs =
        noFuse
            ? List.of(InferenceOptions.unfused())
            : List.of(InferenceOptions.DEFAULT, InferenceOptions.unfused());
    System.out.println(
        "| predictor | batch | examples/s, median (min–max) | ms per batch, median |");
    System.out.println("|---|---:|---:|---:|");
    for (InferenceOptions options : runs) {
      try (Predictor p = checkpoint.load(spec.commandLine(), options)) {
        String label = p.isFused() ? "fused" : "unfused";
        for (int batch : batchSizes) {
          double[] perSecond = time(p, batch);
          double[] sorted = perSecond.clone();
          Arrays.sort(sorted);
          double median = sorted[sorted.length / 2];
          System.out.printf(
              Locale.ROOT,
              "| %s | %d | %.0f (%.0f–%.0f) | %.3f |%n",
              label,
              batch,
              median,
              sorted[0],
              sorted[sorted.length - 1],
              1000.0 * batch / median);
        }
      }
    }
    return 0;
  }

  /** Examples per second of each round, after a warm-up that binds the executor. */
  private double[] time(Predictor p, int batch) {
    Random rng = new Random(0);
    List<float[]> inputs = new ArrayList<>();
    for (Port in : p.inputs()) {
      float[] x = new float[batch * in.exampleSize()];
      for (int i = 0; i < x.length; i++) {
        x[i] = rng.nextFloat();
      }
      inputs.add(x);
    }
    float[][] values = inputs.toArray(float[][]::new);
    for (int i = 0; i < 3; i++) {
      p.predict(batch, values);
    }
    double[] perSecond = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long start = System.nanoTime();
      long end = start + millis * 1_000_000L;
      int n = 0;
      long now;
      do {
        p.predict(batch, values);
        n++;
        now = System.nanoTime();
      } while (now < end);
      perSecond[r] = (double) n * batch / ((now - start) / 1e9);
    }
    return perSecond;
  }
}
