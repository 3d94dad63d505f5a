package dev.kiln.sample;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.sample.models.FashionAutoencoderModel;
import dev.kiln.sample.models.FashionConv1dModel;
import dev.kiln.sample.models.FashionFcnModel;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.sample.models.FashionLstmModel;
import dev.kiln.sample.models.FashionMlpModel;
import dev.kiln.sample.models.FashionVitModel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * One of the sample app's models, behind the interface every generated model implements, so that
 * the commands work on any of them.
 *
 * @param name the name the command line knows the model by
 * @param model the model
 */
record SampleModel(String name, KilnModel model) implements AutoCloseable {

  /** The models the app knows, by command-line name. */
  enum Kind {
    /** {@code FashionMlp}: 784 → 128 (ReLU) → 10; Adam with a cosine decay, 10 epochs. */
    MLP("mlp", 10, 32, "adam", "cosine", 0),
    /**
     * {@code FashionLeNet}: two 5x5 convolutions with batch norm and max pooling, then dense
     * layers; SGD at 0.1 decaying by 0.8 per epoch, 8 epochs.
     */
    LENET("lenet", 8, 32, "sgd", "decay", 0),
    /**
     * {@code FashionLstm}: each image read row by row, 28 steps of 28 pixels, by an LSTM of 128
     * units; Adam with a cosine decay, 10 epochs.
     */
    LSTM("lstm", 10, 64, "adam", "cosine", 0),
    /**
     * {@code FashionConv1d}: each image as 28 channels (its rows) of a 1-D signal 28 long, three
     * 1-D convolutions and two dense layers; Adam with a cosine decay, 8 epochs.
     */
    CONV1D("conv1d", 8, 32, "adam", "cosine", 0),
    /**
     * {@code FashionAutoencoder}: strided convolutions down to a code of 8x7x7, transposed
     * convolutions back up, trained to reproduce each image under the mean squared error
     * ({@code @L2Loss}); Adam with a cosine decay, 5 epochs.
     */
    AUTOENCODER("autoencoder", 5, 64, "adam", "cosine", 0),
    /**
     * {@code FashionVit}: a Vision Transformer, 16 patches of 7x7 embedded into 64 values, a
     * learned position each, four encoder blocks of 4-head self-attention and a GELU feed-forward
     * network, the mean token classified; AdamW (weight decay 0.05) with a cosine decay, 10 epochs.
     */
    VIT("vit", 10, 64, "adamw", "cosine", 0.05f),
    /**
     * {@code FashionFcn}: fully convolutional over images of any size (free dimensions {@code H},
     * {@code W}): three 3x3 convolutions with batch norm, two max poolings, one score map per class
     * averaged over the image; trained and measured at 28x28; Adam with a cosine decay, 8 epochs.
     */
    FCN("fcn", 8, 64, "adam", "cosine", 0);

    final String cliName;
    final int epochs;
    final int batchSize;
    final String optimizer;
    final String schedule;
    final float weightDecay;

    Kind(
        String cliName,
        int epochs,
        int batchSize,
        String optimizer,
        String schedule,
        float weightDecay) {
      this.cliName = cliName;
      this.epochs = epochs;
      this.batchSize = batchSize;
      this.optimizer = optimizer;
      this.schedule = schedule;
      this.weightDecay = weightDecay;
    }

    /** A freshly initialised model. */
    SampleModel create(long seed) {
      return new SampleModel(
          cliName,
          switch (this) {
            case MLP -> FashionMlpModel.create(Init.xavier(), seed);
            case LENET -> FashionLeNetModel.create(Init.xavier(), seed);
            case LSTM -> FashionLstmModel.create(Init.xavier(), seed);
            case CONV1D -> FashionConv1dModel.create(Init.xavier(), seed);
            case AUTOENCODER -> FashionAutoencoderModel.create(Init.xavier(), seed);
            case VIT -> FashionVitModel.create(Init.xavier(), seed);
            case FCN -> at28(FashionFcnModel.create(Init.xavier(), seed));
          });
    }

    /** A model loaded from checkpoint {@code prefix}. */
    SampleModel load(Path prefix) {
      return new SampleModel(
          cliName,
          switch (this) {
            case MLP -> FashionMlpModel.load(prefix);
            case LENET -> FashionLeNetModel.load(prefix);
            case LSTM -> FashionLstmModel.load(prefix);
            case CONV1D -> FashionConv1dModel.load(prefix);
            case AUTOENCODER -> FashionAutoencoderModel.load(prefix);
            case VIT -> FashionVitModel.load(prefix);
            case FCN -> at28(FashionFcnModel.load(prefix));
          });
    }

    /** The layer table the processor computed, without creating the model (or MXNet). */
    String summary() {
      return switch (this) {
        case MLP -> FashionMlpModel.SUMMARY;
        case LENET -> FashionLeNetModel.SUMMARY;
        case LSTM -> FashionLstmModel.SUMMARY;
        case CONV1D -> FashionConv1dModel.SUMMARY;
        case AUTOENCODER -> FashionAutoencoderModel.SUMMARY;
        case VIT -> FashionVitModel.SUMMARY;
        case FCN -> FashionFcnModel.SUMMARY;
      };
    }

    /**
     * {@code fcn} with its classifier fixed at the 28x28 images the commands train, measure and
     * predict on; its {@code forward} still takes any size.
     */
    private static FashionFcnModel at28(FashionFcnModel fcn) {
      fcn.classifier().fixSizes(Map.of("H", 28, "W", 28));
      return fcn;
    }

    /** Whether the model learns to reproduce its input rather than to classify it. */
    boolean reconstructs() {
      return this == AUTOENCODER;
    }

    /**
     * The examples this model trains and is measured on, made from labelled images: the images with
     * their class labels for a classifier, with themselves as the targets for the autoencoder.
     */
    Dataset examples(Dataset labelled) {
      return reconstructs()
          ? Dataset.withTargets(
              labelled.features(),
              labelled.featureSize(),
              labelled.features(),
              labelled.featureSize())
          : labelled;
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
      throw new IllegalArgumentException("unknown model '" + name + "'; choose " + names());
    }
  }

  /** The compile-time layer table. */
  String summary() {
    return model.summary();
  }

  @Override
  public void close() {
    model.close();
  }
}
