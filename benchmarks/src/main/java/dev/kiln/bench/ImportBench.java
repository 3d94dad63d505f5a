package dev.kiln.bench;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.train.Classifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench import}: whether an imported model runs at the speed of the same network written by
 * hand. The ONNX LeNet imported whole ({@link OnnxLeNetImported}, its weights loaded from the file)
 * and {@link OnnxLeNetHand} train ({@code trainBatch}) and infer (the fused predictor) in one child
 * JVM with {@code OMP_NUM_THREADS=1}, interleaved round by round in a rotating order; each row
 * gives steps (or batches) per second and, per round, the imported model's time over the
 * hand-written one's.
 */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    description =
        "An imported ONNX LeNet against the same network written by hand: training steps and "
            + "fused-predictor batches per second, and the imported model's time over the hand's.")
public final class ImportBench implements Callable<Integer> {
  @Option(
      names = "--steps",
      defaultValue = "40",
      description = "Timed steps (or batches) per model and round (default: ${DEFAULT-VALUE}).")
  int steps;

  @Option(
      names = "--rounds",
      defaultValue = "7",
      description = "Rounds (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--batch",
      defaultValue = "64",
      description = "Batch size (default: ${DEFAULT-VALUE}).")
  int batch;

  @Override
  public Integer call() throws Exception {
    if (steps < 1 || rounds < 1 || batch < 1) {
      System.err.println("--steps, --rounds and --batch must be at least 1");
      return 2;
    }
    return CustomBench.child(Rounds.class, steps, rounds, batch);
  }

  /** The child JVM: builds both models, times them, prints the table. */
  public static final class Rounds {
    private Rounds() {}

    /** {@code Rounds STEPS ROUNDS BATCH}: prints the table. */
    public static void main(String[] args) throws Exception {
      System.out.print(
          table(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2])));
    }

    /** Where the build put the ONNX file the imported model reads. */
    static Path onnxFile() throws URISyntaxException {
      return Path.of(OnnxLeNetImported.class.getResource("lenet.onnx").toURI());
    }

    static String table(int steps, int rounds, int batch) throws Exception {
      try (OnnxLeNetImportedModel imported = OnnxLeNetImportedModel.create(Init.xavier(), 7);
          OnnxLeNetHandModel hand = OnnxLeNetHandModel.create(Init.xavier(), 7)) {
        imported.loadImported(onnxFile());
        List<KilnModel> models = List.of(hand, imported);
        List<Classifier> classifiers = List.of(hand.classifier(), imported.classifier());
        CustomBench.Batch b = CustomBench.Batch.random(batch);
        double[][] train = CustomBench.interleaved(classifiers, b, steps, rounds);
        double[][] infer = predicting(models, b.pixels(), batch, steps, rounds);
        StringBuilder out = new StringBuilder();
        out.append(
            String.format(
                Locale.ROOT,
                "An imported ONNX LeNet against the same network by hand, batch %d, %d steps per"
                    + " model and round, %d rounds, OMP_NUM_THREADS=1%n",
                batch,
                steps,
                rounds));
        out.append(
            String.format(
                Locale.ROOT, "%-34s %20s %26s%n", "model", "per second", "time / hand-written's"));
        row(out, "train, hand-written", train[0], train[0]);
        row(out, "train, imported (lenet.onnx)", train[1], train[0]);
        row(out, "infer (fused), hand-written", infer[0], infer[0]);
        row(out, "infer (fused), imported", infer[1], infer[0]);
        return out.toString();
      }
    }

    private static void row(StringBuilder out, String name, double[] rate, double[] base) {
      double[] ratio = new double[rate.length];
      for (int r = 0; r < rate.length; r++) {
        ratio[r] = base[r] / rate[r];
      }
      out.append(
          String.format(
              Locale.ROOT,
              "%-34s %20s %26s%n",
              name,
              CustomBench.Rounds.spread(rate, "%.0f"),
              rate == base ? "1" : CustomBench.Rounds.spread(ratio, "%.2f")));
    }

    /** Batches per second of each model's fused predictor ({@code [model][round]}), interleaved. */
    private static double[][] predicting(
        List<KilnModel> models, float[] pixels, int batch, int steps, int rounds) {
      int n = models.size();
      Predictor[] predictors = new Predictor[n];
      for (int m = 0; m < n; m++) {
        predictors[m] = models.get(m).predictor();
      }
      try {
        double[][] perSecond = new double[n][rounds];
        float[] x = pixels.clone();
        for (int r = 0; r < rounds; r++) {
          for (int k = 0; k < n; k++) {
            int m = (r + k) % n;
            for (int i = 0; i < 3; i++) {
              predictors[m].predict(batch, x);
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < steps; i++) {
              predictors[m].predict(batch, x);
            }
            perSecond[m][r] = steps / ((System.nanoTime() - t0) / 1e9);
          }
        }
        return perSecond;
      } finally {
        for (Predictor p : predictors) {
          p.close();
        }
      }
    }
  }
}
