package dev.kiln.sample;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.sample.models.FashionLstmModel;
import dev.kiln.sample.models.FashionMlpModel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The sample app's models behind one face, so that the commands can work on any of them. Each
 * generated model class is typed; this adapter keeps only what the commands need.
 *
 * @param name the name the command line knows the model by
 * @param summary the compile-time layer table
 * @param classifier the model's classifier view
 * @param save writes a checkpoint at a prefix
 * @param closer frees the model
 */
record SampleModel(
    String name, String summary, Classifier classifier, Consumer<Path> save, AutoCloseable closer)
    implements AutoCloseable {

  /** The models the app knows, by command-line name. */
  enum Kind {
    /** {@code FashionMlp}: 784 → 128 (ReLU) → 10; Adam with a cosine decay, 10 epochs. */
    MLP("mlp", 10, 32, "adam", "cosine"),
    /**
     * {@code FashionLeNet}: two 5x5 convolutions with batch norm and max pooling, then dense
     * layers; SGD at 0.1 decaying by 0.8 per epoch, 8 epochs.
     */
    LENET("lenet", 8, 32, "sgd", "decay"),
    /**
     * {@code FashionLstm}: each image read row by row, 28 steps of 28 pixels, by an LSTM of 128
     * units; Adam with a cosine decay, 10 epochs.
     */
    LSTM("lstm", 10, 64, "adam", "cosine");

    final String cliName;
    final int epochs;
    final int batchSize;
    final String optimizer;
    final String schedule;

    Kind(String cliName, int epochs, int batchSize, String optimizer, String schedule) {
      this.cliName = cliName;
      this.epochs = epochs;
      this.batchSize = batchSize;
      this.optimizer = optimizer;
      this.schedule = schedule;
    }

    /** A freshly initialised model. */
    SampleModel create(long seed) {
      return switch (this) {
        case MLP -> of(FashionMlpModel.create(Init.xavier(), seed));
        case LENET -> of(FashionLeNetModel.create(Init.xavier(), seed));
        case LSTM -> of(FashionLstmModel.create(Init.xavier(), seed));
      };
    }

    /** A model loaded from checkpoint {@code prefix}. */
    SampleModel load(Path prefix) {
      return switch (this) {
        case MLP -> of(FashionMlpModel.load(prefix));
        case LENET -> of(FashionLeNetModel.load(prefix));
        case LSTM -> of(FashionLstmModel.load(prefix));
      };
    }

    /** The command-line names, e.g. {@code mlp, lenet}. */
    static String names() {
      return String.join(", ", Arrays.stream(values()).map(k -> k.cliName).toList());
    }

    /** The kind whose command-line name is {@code name}. */
    static Kind parse(String name) {
      for (Kind k : values()) {
        if (k.cliName.equals(name.toLowerCase(Locale.ROOT))) {
          return k;
        }
      }
      throw new IllegalArgumentException(
          "unknown model '"
              + name
              + "'; choose one of "
              + Arrays.stream(values()).map(k -> k.cliName).toList());
    }
  }

  private static SampleModel of(FashionMlpModel m) {
    return new SampleModel("mlp", m.summary(), m.classifier(), m::save, m);
  }

  private static SampleModel of(FashionLeNetModel m) {
    return new SampleModel("lenet", m.summary(), m.classifier(), m::save, m);
  }

  private static SampleModel of(FashionLstmModel m) {
    return new SampleModel("lstm", m.summary(), m.classifier(), m::save, m);
  }

  @Override
  public void close() throws Exception {
    closer.close();
  }
}
