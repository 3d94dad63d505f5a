package dev.kiln.sample;

import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.io.Checkpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How {@code serve} and {@code quantize} read a checkpoint as an inference-only {@link Predictor}:
 * a checkpoint that {@code quantize} (or {@link Predictor#save}) wrote records its inputs and loads
 * as it is; any other must be one of the sample models'.
 */
final class Predictors {
  private Predictors() {}

  /** Whether checkpoint {@code prefix} records its inputs' shapes (a predictor's checkpoint). */
  static boolean isPredictorCheckpoint(Path prefix) {
    Path symbol = Checkpoint.symbolFile(prefix);
    try {
      return Files.isRegularFile(symbol)
          && Files.size(symbol) <= Checkpoint.MAX_SYMBOL_BYTES
          && Files.readString(symbol).contains(Predictor.SHAPE_ATTR);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Checkpoint {@code given} (given to {@code option}) as a predictor. */
  static Predictor load(String option, Path given, InferenceOptions options) {
    Path prefix = Checkpoints.prefix(given);
    if (isPredictorCheckpoint(prefix)) {
      return Predictor.load(prefix, options);
    }
    SampleModel m;
    try {
      m = Checkpoints.load(option, null, given);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          e.getMessage()
              + "\na model of your own is served from the checkpoint its predictor writes: "
              + "model.predictor().save(prefix), then --checkpoint prefix",
          e);
    }
    try (m) {
      return m.model().predictor(options);
    }
  }
}
