package dev.kiln.sample;

import dev.kiln.runtime.Classifier;
import dev.kiln.runtime.Init;
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
record SampleModel(String name, String summary, Classifier classifier, Consumer<Path> save,
    AutoCloseable closer) implements AutoCloseable {

  /** The models the app knows, by command-line name. */
  enum Kind {
    MLP("mlp");

    final String cliName;

    Kind(String cliName) {
      this.cliName = cliName;
    }

    /** A freshly initialised model. */
    SampleModel create(long seed) {
      return switch (this) {
        case MLP -> of(FashionMlpModel.create(Init.xavier(), seed));
      };
    }

    /** A model loaded from checkpoint {@code prefix}. */
    SampleModel load(Path prefix) {
      return switch (this) {
        case MLP -> of(FashionMlpModel.load(prefix));
      };
    }

    /** The kind whose command-line name is {@code name}. */
    static Kind parse(String name) {
      for (Kind k : values()) {
        if (k.cliName.equals(name.toLowerCase(Locale.ROOT))) {
          return k;
        }
      }
      throw new IllegalArgumentException("unknown model '" + name + "'; choose one of "
          + Arrays.stream(values()).map(k -> k.cliName).toList());
    }
  }

  private static SampleModel of(FashionMlpModel m) {
    return new SampleModel("mlp", m.summary(), m.classifier(), m::save, m);
  }

  @Override
  public void close() throws Exception {
    closer.close();
  }
}
