package dev.kiln.sample;

import dev.kiln.runtime.Classifier;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.Sgd;
import dev.kiln.sample.bench.Bench;
import dev.kiln.sample.data.Batch;
import dev.kiln.sample.data.Dataset;
import dev.kiln.sample.data.DatasetNotFoundException;
import dev.kiln.sample.data.FashionMnist;
import dev.kiln.sample.models.FashionMlpModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The Kiln sample app: trains, evaluates and benchmarks Fashion-MNIST models from the command
 * line.
 */
@Command(name = "kiln-sample", mixinStandardHelpOptions = true, version = "kiln-sample 0.1.0",
    description = "Train and benchmark Kiln models on Fashion-MNIST with MXNet.",
    subcommands = {Main.Train.class, Bench.class})
public final class Main implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** Entry point. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new Main()).execute(args));
  }

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** {@code train}: trains the MLP with plain SGD and reports test accuracy per epoch. */
  @Command(name = "train", mixinStandardHelpOptions = true,
      description = "Train the FashionMlp model with SGD and report test accuracy per epoch.")
  static final class Train implements Callable<Integer> {
    @Option(names = "--data", description = "Directory with the Fashion-MNIST IDX files "
        + "(default: ${DEFAULT-VALUE}).", defaultValue = "/usr/share/datasets/fashion-mnist")
    Path data;

    @Option(names = "--epochs", description = "Passes over the training set (default: "
        + "${DEFAULT-VALUE}).", defaultValue = "5")
    int epochs;

    @Option(names = "--batch-size", description = "Examples per step (default: "
        + "${DEFAULT-VALUE}).", defaultValue = "32")
    int batchSize;

    @Option(names = "--lr", description = "SGD learning rate (default: ${DEFAULT-VALUE}).",
        defaultValue = "0.1")
    float learningRate;

    @Option(names = "--seed", description = "Seed for initialisation and shuffling (default: "
        + "${DEFAULT-VALUE}).", defaultValue = "0")
    long seed;

    @Option(names = "--out", description = "Checkpoint prefix to write (default: "
        + "${DEFAULT-VALUE}).", defaultValue = "out/fashion-mlp")
    Path out;

    @Override
    public Integer call() throws IOException {
      if (epochs < 1 || batchSize < 1) {
        System.err.println("--epochs and --batch-size must be at least 1");
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
      try (FashionMlpModel model = FashionMlpModel.create(Init.xavier(), seed);
          Sgd sgd = new Sgd(learningRate)) {
        System.out.print(model.summary());
        Classifier classifier = model.classifier();
        for (int epoch = 1; epoch <= epochs; epoch++) {
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
        model.save(out);
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
