package dev.kiln.bench;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.graph.precision.Precision;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.sample.models.FashionLeNetModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench precision}: bf16 mixed-precision training against float32, the sample app's LeNet
 * (20 and 50 filters, batch norm) and LeNet 16/32, each trained both ways in one child JVM with
 * {@code OMP_NUM_THREADS=1}, interleaved round by round; the speed-up is taken per round.
 */
@Command(
    name = "precision",
    mixinStandardHelpOptions = true,
    description = "bf16 mixed-precision training steps against float32 on two LeNets.")
public final class PrecisionBench implements Callable<Integer> {
  @Option(
      names = "--steps",
      defaultValue = "20",
      description = "Timed steps per model and round (default: ${DEFAULT-VALUE}).")
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
    String refusal = Precision.BF16.refusal();
    if (refusal != null) {
      System.err.println(refusal);
      return 2;
    }
    return CustomBench.child(Rounds.class, steps, rounds, batch);
  }

  /** The child JVM: both LeNets in both precisions, timed, as a table. */
  public static final class Rounds {
    private Rounds() {}

    /** {@code Rounds STEPS ROUNDS BATCH}: prints the table. */
    public static void main(String[] args) {
      System.out.print(
          table(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2])));
    }

    /** The table: a row per model, float32's and bf16's steps per second and their ratio. */
    static String table(int steps, int rounds, int batch) {
      List<String> names = List.of("LeNet 20/50, batch norm", "LeNet 16/32, batch norm");
      List<KilnModel> models = new ArrayList<>();
      List<Classifier> classifiers = new ArrayList<>();
      for (int i = 0; i < names.size(); i++) {
        for (Precision p : Precision.values()) {
          KilnModel m =
              i == 0
                  ? FashionLeNetModel.create(Init.xavier(), 7)
                  : LeNet1632Model.create(Init.xavier(), 7);
          m.trainingPrecision(p);
          models.add(m);
          classifiers.add(m.classifier());
        }
      }
      double[][] perSecond =
          CustomBench.interleaved(classifiers, CustomBench.Batch.random(batch), steps, rounds);
      StringBuilder out = new StringBuilder();
      out.append(
          String.format(
              Locale.ROOT,
              "bf16 against float32 training, batch %d, %d steps per model and round "
                  + "(trainBatch), %d rounds, OMP_NUM_THREADS=1%n",
              batch,
              steps,
              rounds));
      out.append(
          String.format(
              Locale.ROOT,
              "%-26s %18s %18s %20s%n",
              "model",
              "fp32 steps/s",
              "bf16 steps/s",
              "bf16 / fp32"));
      for (int i = 0; i < names.size(); i++) {
        double[] ratio = new double[rounds];
        for (int r = 0; r < rounds; r++) {
          ratio[r] = perSecond[2 * i + 1][r] / perSecond[2 * i][r];
        }
        out.append(
            String.format(
                Locale.ROOT,
                "%-26s %18s %18s %20s%n",
                names.get(i),
                CustomBench.Rounds.spread(perSecond[2 * i], "%.1f"),
                CustomBench.Rounds.spread(perSecond[2 * i + 1], "%.1f"),
                CustomBench.Rounds.spread(ratio, "%.2f")));
      }
      models.forEach(KilnModel::close);
      return out.toString();
    }
  }
}
