package dev.kiln.cli;

import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.data.FashionMnist;
import dev.kiln.runtime.infer.FusedNode;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.infer.QuantizeOptions;
import dev.kiln.runtime.io.Checkpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code quantize}: a classifier checkpoint to an int8 checkpoint with MXNet's post-training
 * quantisation, calibrated on the first training images, with both models' test accuracy.
 */
@Command(
    name = "quantize",
    mixinStandardHelpOptions = true,
    description =
        "Write an int8 version of a classifier checkpoint (MXNet's post-training quantisation,"
            + " oneDNN's int8 kernels), calibrated on the first --calibration-batches batches of"
            + " the training images; prints the test accuracy of both. serve --checkpoint serves"
            + " the result.")
final class Quantize implements Callable<Integer> {
  @Mixin FashionData data;

  @Mixin CheckpointOptions checkpoint;

  @Spec CommandSpec spec;

  @Option(
      names = "--to",
      paramLabel = "PREFIX",
      required = true,
      description = "Prefix of the int8 checkpoint to write; its directory is created.")
  Path to;

  @Option(
      names = "--calibration-batches",
      paramLabel = "N",
      defaultValue = "10",
      description = "Calibration batches of --batch-size images (default: ${DEFAULT-VALUE}).")
  int batches;

  @Option(
      names = "--batch-size",
      defaultValue = "64",
      description = "Images per calibration batch (default: ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(
      names = "--calibration",
      paramLabel = "MODE",
      defaultValue = "entropy",
      description =
          "entropy (the KL-optimal threshold; outliers clip) or minmax (the range seen)"
              + " (default: ${DEFAULT-VALUE}).")
  String calibration;

  @Option(
      names = "--exclude",
      paramLabel = "NODE",
      split = ",",
      description = "Nodes to keep in float32, e.g. conv1 (comma-separated).")
  List<String> exclude = List.of();

  @Option(names = "--overwrite", description = "Replace a checkpoint already at --to.")
  boolean overwrite;

  @Override
  public Integer call() throws Exception {
    Values.atLeast(spec, "--calibration-batches", batches, 1);
    Values.atLeast(spec, "--batch-size", batchSize, 1);
    QuantizeOptions.Calibration mode =
        switch (calibration.toLowerCase(Locale.ROOT)) {
          case "entropy" -> QuantizeOptions.Calibration.ENTROPY;
          case "minmax", "min-max", "naive" -> QuantizeOptions.Calibration.MIN_MAX;
          default ->
              throw Values.usage(
                  spec, "--calibration " + calibration + ": choose entropy or minmax");
        };
    Path target = Checkpoint.prefixOf(to);
    if (!overwrite && Checkpoint.exists(target)) {
      throw new IllegalArgumentException(
          "--to "
              + target
              + ": a checkpoint is already there ("
              + Checkpoint.paramsFile(target)
              + "); give another prefix, or --overwrite to replace it");
    }
    if (checkpoint.prefix().equals(target)) {
      throw new IllegalArgumentException(
          "--to " + to + " is the checkpoint being quantised; give another prefix");
    }
    FashionMnist mnist = data.load();
    Dataset calib = mnist.train().first(Math.min(mnist.train().size(), batches * batchSize));
    Dataset test = mnist.test();
    QuantizeOptions options = new QuantizeOptions(mode, batches, batchSize, exclude);
    try (Predictor fp32 = checkpoint.load(spec.commandLine(), InferenceOptions.DEFAULT)) {
      if (fp32.outputs().size() != 1 || fp32.outputs().get(0).exampleSize() != 10) {
        throw new IllegalArgumentException(
            "--checkpoint "
                + checkpoint.checkpoint
                + " is no classifier of the 10 Fashion-MNIST classes");
      }
      long t0 = System.nanoTime();
      try (Predictor int8 = fp32.quantized(calib, options)) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        for (FusedNode f : int8.fusion()) {
          System.out.println((f.name().startsWith("quantized_") ? "int8    " : "float32 ") + f);
        }
        double a32 = accuracy(fp32, test);
        double a8 = accuracy(int8, test);
        Path parent = target.toAbsolutePath().getParent();
        if (parent != null) {
          Files.createDirectories(parent);
        }
        int8.save(target);
        System.out.printf(
            Locale.ROOT,
            "calibrated on %d images (%s) in %.1f s; test accuracy float32 %.4f, int8 %.4f"
                + " (%+.2f points)%n",
            calib.size(),
            mode == QuantizeOptions.Calibration.ENTROPY ? "entropy" : "min/max",
            seconds,
            a32,
            a8,
            100 * (a8 - a32));
        System.out.println(
            "wrote "
                + Checkpoint.symbolFile(target)
                + ", "
                + Checkpoint.paramsFile(target)
                + ", "
                + Checkpoint.integrityFile(target)
                + "; serve --checkpoint "
                + target
                + " serves it");
      }
    }
    return 0;
  }

  /** The share of {@code test}'s images whose most probable class is their label. */
  static double accuracy(Predictor p, Dataset test) {
    int batch = 100;
    int right = 0;
    int n = test.size() / batch * batch;
    for (int from = 0; from < n; from += batch) {
      float[] x = new float[batch * test.featureSize()];
      System.arraycopy(test.features(), from * test.featureSize(), x, 0, x.length);
      float[] probs = p.predict(batch, x)[0];
      for (int i = 0; i < batch; i++) {
        int best = 0;
        for (int c = 1; c < 10; c++) {
          if (probs[i * 10 + c] > probs[i * 10 + best]) {
            best = c;
          }
        }
        right += best == test.label(from + i) ? 1 : 0;
      }
    }
    return (double) right / n;
  }
}
