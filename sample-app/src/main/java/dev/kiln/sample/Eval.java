package dev.kiln.sample;

import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.Fitter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code eval}: loss and metric (accuracy, or the autoencoder's MSE) of a checkpoint on the test
 * set.
 */
@Command(
    name = "eval",
    mixinStandardHelpOptions = true,
    description = "Evaluate a checkpoint on the Fashion-MNIST test set.")
final class Eval implements Callable<Integer> {
  @Mixin Data data;

  @Option(
      names = "--model",
      paramLabel = "NAME",
      description =
          "Model: mlp, lenet, lstm, conv1d, autoencoder or vit (default: the one the checkpoint "
              + "holds; given, it must match).")
  SampleModel.Kind model;

  @Option(
      names = "--checkpoint",
      paramLabel = "PREFIX",
      required = true,
      description =
          "Checkpoint prefix, e.g. out/mlp (PREFIX-symbol.json and PREFIX-0000.params), or one "
              + "of those files.")
  Path checkpoint;

  @Override
  public Integer call() throws Exception {
    Path prefix = Checkpoints.prefix(checkpoint);
    try (SampleModel sample = Checkpoints.load("--checkpoint", model, checkpoint)) {
      SampleModel.Kind kind = SampleModel.Kind.parse(sample.name());
      Fitter fitter = sample.model().fitter();
      Evaluation e = fitter.evaluate(kind.examples(data.load().test()));
      System.out.printf(
          Locale.ROOT,
          "%s (%s) on %d test images: loss %.4f, %s %.4f%n",
          prefix,
          sample.name(),
          e.examples(),
          e.loss(),
          fitter.metric().equals("mse") ? "MSE" : fitter.metric(),
          e.metric());
    }
    return 0;
  }
}
