package dev.kiln.sample;

import dev.kiln.runtime.Classifier;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.Sgd;
import dev.kiln.sample.data.Batch;
import dev.kiln.sample.data.Dataset;
import dev.kiln.sample.data.DatasetNotFoundException;
import dev.kiln.sample.data.FashionMnist;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.sample.models.FashionMlpModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The Kiln sample app: trains and evaluates Fashion-MNIST models from the command line. */
@Command(name = "kiln-sample", mixinStandardHelpOptions = true, version = "kiln-sample 0.1.0",
    description = "Train Kiln models on Fashion-MNIST with MXNet.",
    subcommands = {Main.Train.class})
public final class Main implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** Entry point. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true)
        .execute(args));
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** The models {@code train} can train, with the defaults that suit each. */
  enum Architecture {
    /** {@code FashionMlp}: 784 → 128 (ReLU) → 10. */
    MLP(5, 32, 0.1f, 1f),
    /** {@code FashionLeNet}: two 5x5 convolutions with max pooling, then 256 → 10. */
    LENET(8, 32, 0.1f, 0.8f);

    final int epochs;
    final int batchSize;
    final float learningRate;
    final float decay;

    Architecture(int epochs, int batchSize, float learningRate, float decay) {
      this.epochs = epochs;
      this.batchSize = batchSize;
      this.learningRate = learningRate;
      this.decay = decay;
    }
  }

  /**
   * A model opened for training: its classifier view, its layer table, how to save it and how
   * to close it.
   */
  private record Opened(Classifier classifier, String summary, Consumer<Path> save,
      Runnable closer) implements AutoCloseable {
    static Opened of(Architecture architecture, long seed) {
      if (architecture == Architecture.LENET) {
        FashionLeNetModel m = FashionLeNetModel.create(Init.xavier(), seed);
        return new Opened(m.classifier(), m.summary(), m::save, m::close);
      }
      FashionMlpModel m = FashionMlpModel.create(Init.xavier(), seed);
      return new Opened(m.classifier(), m.summary(), m::save, m::close);
    }

    @Override
    public void close() {
      closer.run();
    }
  }

  /** {@code train}: trains a model with plain SGD and reports test accuracy per epoch. */
  @Command(name = "train", mixinStandardHelpOptions = true,
      description = "Train a Fashion-MNIST model with SGD and report test accuracy per epoch.")
  static final class Train implements Callable<Integer> {
    @Option(names = "--model", description = "Model to train: mlp or lenet (default: "
        + "${DEFAULT-VALUE}).", defaultValue = "mlp")
    Architecture model;

    @Option(names = "--data", description = "Directory with the Fashion-MNIST IDX files "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "/usr/share/datasets/fashion-mnist")
    Path data;

    @Option(names = "--epochs", description = "Passes over the training set (default: 5 for "
        + "mlp, 8 for lenet).")
    Integer epochs;

    @Option(names = "--batch-size", description = "Examples per step (default: 32).")
    Integer batchSize;

    @Option(names = "--lr", description = "SGD learning rate of the first epoch (default: 0.1).")
    Float learningRate;

    @Option(names = "--lr-decay", description = "Factor applied to the learning rate after each "
        + "epoch (default: 1, constant, for mlp; 0.8 for lenet).")
    Float decay;

    @Option(names = "--seed", description = "Seed for initialisation and shuffling (default: "
        + "${DEFAULT-VALUE}).", defaultValue = "0")
    long seed;

    @Option(names = "--out", description = "Checkpoint prefix to write (default: "
        + "out/fashion-mlp or out/fashion-lenet).")
    Path out;

    @Override
    public Integer call() throws IOException {
      int epochs = this.epochs != null ? this.epochs : model.epochs;
      int batchSize = this.batchSize != null ? this.batchSize : model.batchSize;
      float learningRate = this.learningRate != null ? this.learningRate : model.learningRate;
      float decay = this.decay != null ? this.decay : model.decay;
      Path out = this.out != null ? this.out
          : Path.of("out", "fashion-" + model.name().toLowerCase(Locale.ROOT));
      if (epochs < 1 || batchSize < 1) {
        System.err.println("--epochs and --batch-size must be at least 1");
        return 2;
      }
      if (!(decay > 0 && decay <= 1)) {
        System.err.println("--lr-decay must be in (0, 1]");
        return 2;
      }
      FashionMnist data;
      try {
        data = FashionMnist.load(this.data);
      } catch (DatasetNotFoundException e) {
        System.err.println(e.getMessage());
        return 1;
      }
      Dataset train = data.train();
      Dataset test = data.test();
      System.out.printf(Locale.ROOT, "Fashion-MNIST: %d training and %d test images%n",
          train.size(), test.size());
      try (Opened opened = Opened.of(model, seed); Sgd sgd = new Sgd(learningRate)) {
        System.out.print(opened.summary());
        System.out.printf(Locale.ROOT, "SGD, learning rate %s (x %s per epoch), batch size %d, "
            + "%d epochs%n", learningRate, decay, batchSize, epochs);
        Classifier classifier = opened.classifier();
        for (int epoch = 1; epoch <= epochs; epoch++) {
          sgd.learningRate((float) (learningRate * Math.pow(decay, epoch - 1)));
          long start = System.nanoTime();
          double loss = 0;
          int correct = 0;
          for (Batch b : train.batches(batchSize, true, seed + epoch)) {
            Classifier.Result r = classifier.trainBatch(b.features(), b.labels(), sgd);
            loss += r.lossSum();
            correct += r.correct();
          }
          double seconds = (System.nanoTime() - start) / 1e9;
          Classifier.Result t = evaluate(classifier, test);
          System.out.printf(Locale.ROOT, "epoch %d/%d  train loss %.4f acc %.4f  test loss %.4f "
              + "acc %.4f  %.1f s%n", epoch, epochs, loss / train.size(),
              (double) correct / train.size(), t.meanLoss(), t.accuracy(), seconds);
        }
        opened.save().accept(out);
        System.out.println("checkpoint written to " + out + "-symbol.json and " + out
            + "-0000.params");
      }
      return 0;
    }

    private static Classifier.Result evaluate(Classifier classifier, Dataset test) {
      double loss = 0;
      int correct = 0;
      for (Batch b : test.batches(1000, false, 0)) {
        Classifier.Result r = classifier.evaluateBatch(b.features(), b.labels());
        loss += r.lossSum();
        correct += r.correct();
      }
      return new Classifier.Result(loss, correct, test.size());
    }
  }
}
