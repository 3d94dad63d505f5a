package dev.kiln.sample;

import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.data.FashionMnist;
import dev.kiln.runtime.train.Classifier;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code predict}: class predictions for the first test images. */
@Command(
    name = "predict",
    mixinStandardHelpOptions = true,
    description = "Predict the class of the first --count test images.")
final class Predict implements Callable<Integer> {
  @Mixin Data data;

  @Spec CommandSpec spec;

  @Option(
      names = "--model",
      paramLabel = "NAME",
      description =
          "Model: mlp, lenet, lstm, conv1d or vit (default: the one the checkpoint holds; given, "
              + "it must match).")
  SampleModel.Kind model;

  @Option(
      names = "--checkpoint",
      paramLabel = "PREFIX",
      required = true,
      description = "Checkpoint prefix, e.g. out/mlp, or one of its files.")
  Path checkpoint;

  @Option(
      names = "--count",
      defaultValue = "10",
      description = "Images to classify (default: ${DEFAULT-VALUE}).")
  int count;

  @Override
  public Integer call() throws Exception {
    if (count < 1) {
      throw new CommandLine.ParameterException(
          spec.commandLine(), "--count must be at least 1, got " + count);
    }
    Dataset all = data.load().test();
    if (count > all.size()) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--count must be at most "
              + all.size()
              + " (the test set has "
              + all.size()
              + " images), got "
              + count);
    }
    Dataset test = all.first(count);
    try (SampleModel sample = Checkpoints.load("--checkpoint", model, checkpoint)) {
      if (!sample.model().isClassifier()) {
        throw new IllegalArgumentException(
            "--checkpoint "
                + checkpoint
                + " holds the "
                + sample.name()
                + ", which reconstructs images rather than classifying them: predict needs a "
                + "classifier (mlp, lenet, lstm, conv1d or vit); eval measures its test MSE, and "
                + "train wrote its reconstructions as PREFIX-reconstructions.png");
      }
      Classifier c = sample.model().classifier();
      float[] probs = c.predict(test.features(), test.size());
      int[] predicted = c.predict(test);
      for (int i = 0; i < test.size(); i++) {
        System.out.printf(
            Locale.ROOT,
            "%4d  predicted %-12s (p=%.3f)  actual %-12s %s%n",
            i,
            FashionMnist.className(predicted[i]),
            probs[i * c.classes() + predicted[i]],
            FashionMnist.className(test.label(i)),
            predicted[i] == test.label(i) ? "" : "✗");
      }
    }
    return 0;
  }
}
