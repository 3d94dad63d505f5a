package dev.kiln.bench;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.infer.ChannelPadding;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.sample.models.FashionLeNetModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench padding}: the sample app's LeNet (20 and 50 filters) trained with its convolutions'
 * filters padded to whole blocks of 16 ({@link ChannelPadding#training}, the default) against the
 * same model with padding off ({@code kiln.channelPadding=false} while its classifier is made), and
 * the same LeNet declared with 32 and 64 filters ({@link LeNet3264}: the padded kernels without the
 * padding's own copies), interleaved round by round in one child JVM with {@code
 * OMP_NUM_THREADS=1}; each ratio is taken per round.
 */
@Command(
    name = "padding",
    mixinStandardHelpOptions = true,
    description = "LeNet training steps with the filters padded to blocks of 16 against unpadded.")
public final class PaddingBench implements Callable<Integer> {
  /** The speed-up the padded LeNet's step is to reach (issue 38 item 6). */
  static final double TARGET = 1.25;

  @Option(
      names = "--steps",
      defaultValue = "30",
      description = "Timed steps per model and round (default: ${DEFAULT-VALUE}).")
  int steps;

  @Option(
      names = "--rounds",
      defaultValue = "9",
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

  /**
   * Trains each classifier {@code steps} steps per round ({@code trainBatch}, which waits for its
   * loss; after three untimed ones), the order rotating round by round; returns steps per second of
   * wall time {@code [0][model][round]} and of this process's CPU time {@code [1][model][round]}.
   */
  static double[][][] interleaved(
      List<Classifier> classifiers, CustomBench.Batch b, int steps, int rounds) {
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    int n = classifiers.size();
    double[][][] out = new double[2][n][rounds];
    try (Sgd sgd = new Sgd(0.01f)) {
      for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < n; k++) {
          int m = (r + k) % n;
          Classifier c = classifiers.get(m);
          for (int i = 0; i < 3; i++) {
            c.trainBatch(b.pixels(), b.labels(), sgd);
          }
          long cpu0 = os.getProcessCpuTime();
          long t0 = System.nanoTime();
          for (int i = 0; i < steps; i++) {
            c.trainBatch(b.pixels(), b.labels(), sgd);
          }
          out[0][m][r] = steps / ((System.nanoTime() - t0) / 1e9);
          out[1][m][r] = steps / ((os.getProcessCpuTime() - cpu0) / 1e9);
        }
      }
    }
    return out;
  }

  /** The child JVM: the three LeNets, timed, as a table. */
  public static final class Rounds {
    private Rounds() {}

    /** {@code Rounds STEPS ROUNDS BATCH}: prints the table. */
    public static void main(String[] args) {
      System.out.print(
          table(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2])));
    }

    /** The table: a row per model, its steps per second and its ratio to the unpadded LeNet. */
    static String table(int steps, int rounds, int batch) {
      List<String> names =
          List.of("LeNet 20/50, unpadded", "LeNet 20/50, padded", "LeNet 32/64 as declared");
      List<KilnModel> models = new ArrayList<>();
      List<Classifier> classifiers = new ArrayList<>();
      StringBuilder out = new StringBuilder();
      try {
        for (int i = 0; i < names.size(); i++) {
          KilnModel m =
              i < 2
                  ? FashionLeNetModel.create(Init.xavier(), 7)
                  : LeNet3264Model.create(Init.xavier(), 7);
          models.add(m);
          String before = System.getProperty(ChannelPadding.SWITCH);
          System.setProperty(ChannelPadding.SWITCH, Boolean.toString(i != 0));
          try {
            classifiers.add(m.classifier());
          } finally {
            if (before == null) {
              System.clearProperty(ChannelPadding.SWITCH);
            } else {
              System.setProperty(ChannelPadding.SWITCH, before);
            }
          }
        }
        out.append("padded: ")
            .append(ChannelPadding.trainingPadding(models.get(1).runtime().graph()))
            .append(String.format(Locale.ROOT, "%n"));
        double[][][] timed =
            interleaved(classifiers, CustomBench.Batch.random(batch), steps, rounds);
        double[][] perSecond = timed[0];
        double[][] perCpuSecond = timed[1];
        out.append(
            String.format(
                Locale.ROOT,
                "training with the filters padded to blocks of 16, batch %d, %d steps per model"
                    + " and round (trainBatch, plain SGD), %d rounds, OMP_NUM_THREADS=1%n",
                batch,
                steps,
                rounds));
        out.append(
            String.format(
                Locale.ROOT,
                "%-26s %18s %18s %22s %22s%n",
                "model",
                "steps/s",
                "steps/CPU-s",
                "over unpadded",
                "over unpadded, CPU"));
        double[] padded = null;
        double[] paddedCpu = null;
        for (int i = 0; i < names.size(); i++) {
          double[] ratio = new double[rounds];
          double[] cpuRatio = new double[rounds];
          for (int r = 0; r < rounds; r++) {
            ratio[r] = perSecond[i][r] / perSecond[0][r];
            cpuRatio[r] = perCpuSecond[i][r] / perCpuSecond[0][r];
          }
          if (i == 1) {
            padded = ratio;
            paddedCpu = cpuRatio;
          }
          out.append(
              String.format(
                  Locale.ROOT,
                  "%-26s %18s %18s %22s %22s%n",
                  names.get(i),
                  CustomBench.Rounds.spread(perSecond[i], "%.1f"),
                  CustomBench.Rounds.spread(perCpuSecond[i], "%.1f"),
                  i == 0 ? "" : CustomBench.Rounds.spread(ratio, "%.2f"),
                  i == 0 ? "" : CustomBench.Rounds.spread(cpuRatio, "%.2f")));
        }
        out.append(
            String.format(
                Locale.ROOT,
                "padded / unpadded in CPU time (the process's, less sensitive to other load):"
                    + " median %.2f%n",
                Stats.median(java.util.Arrays.stream(paddedCpu).boxed().toList())));
        double median = Stats.median(java.util.Arrays.stream(padded).boxed().toList());
        out.append(
            String.format(
                Locale.ROOT,
                "padded / unpadded: median %.2f, target %.2f: %s%n",
                median,
                TARGET,
                median >= TARGET ? "met" : "NOT met"));
        return out.toString();
      } finally {
        models.forEach(KilnModel::close);
      }
    }
  }
}
