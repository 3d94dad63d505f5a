package dev.kiln.bench;

import dev.kiln.cli.ProgramClassPath;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bench custom}: what a one-operation custom layer costs. {@link ScaledLeNet1632} ({@link
 * LeNet1632} with a learned channel scale, {@code x.mul(scale)}, after its first convolution)
 * trains against the plain LeNet in one child JVM with {@code OMP_NUM_THREADS=1}, interleaved round
 * by round in a rotating order: once with the scale in Kiln's fast form (a depthwise 1x1
 * convolution) and once in MXNet's {@code broadcast_mul} ({@code -Dkiln.perAxisForm=false} while
 * its graphs are built). Each row gives steps per second and, per round, the time of a step
 * relative to the plain LeNet's.
 */
@Command(
    name = "custom",
    mixinStandardHelpOptions = true,
    description =
        "A custom layer's cost: LeNet 16/32 with a learned channel scale (x.mul(scale)) "
            + "against the same LeNet without it, the scale in Kiln's fast form and in MXNet's "
            + "broadcast_mul.")
public final class CustomBench implements Callable<Integer> {
  @Option(
      names = "--steps",
      defaultValue = "40",
      description = "Timed steps per model and round (default: ${DEFAULT-VALUE}).")
  int steps;

  @Option(
      names = "--rounds",
      defaultValue = "7",
      description = "Rounds (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--batch",
      defaultValue = "32",
      description = "Batch size (default: ${DEFAULT-VALUE}).")
  int batch;

  @Override
  public Integer call() throws Exception {
    if (steps < 1 || rounds < 1 || batch < 1) {
      System.err.println("--steps, --rounds and --batch must be at least 1");
      return 2;
    }
    return child(Rounds.class, steps, rounds, batch);
  }

  /**
   * Runs {@code main} ({@code STEPS ROUNDS BATCH}) in a child JVM with {@code OMP_NUM_THREADS=1},
   * printing its output between two readings of {@code /proc/loadavg}; its exit status.
   */
  static int child(Class<?> main, int steps, int rounds, int batch) throws Exception {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx2g",
            "-Dai.djl.offline=true",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
            "-cp",
            ProgramClassPath.get(),
            main.getName(),
            Integer.toString(steps),
            Integer.toString(rounds),
            Integer.toString(batch));
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("OMP_NUM_THREADS", "1");
    pb.environment().put("OPT_OUT_TRACKING", "true");
    pb.environment().putIfAbsent("MXNET_SUBGRAPH_VERBOSE", "0");
    System.out.printf(Locale.ROOT, "/proc/loadavg at the start: %s%n", Bench.loadavg());
    Process p = pb.start();
    try (var in = p.inputReader(StandardCharsets.UTF_8)) {
      in.lines().forEach(System.out::println);
    }
    int exit = p.waitFor();
    System.out.printf(Locale.ROOT, "/proc/loadavg at the end: %s%n", Bench.loadavg());
    return exit == 0 ? 0 : 1;
  }

  /** A batch of {@code batch} random images and labels, the same for every model timed. */
  record Batch(float[] pixels, int[] labels) {
    static Batch random(int batch) {
      Random rng = new Random(1);
      float[] pixels = new float[batch * 784];
      for (int i = 0; i < pixels.length; i++) {
        pixels[i] = rng.nextFloat();
      }
      return new Batch(pixels, rng.ints(batch, 0, 10).toArray());
    }
  }

  /**
   * Steps per second of each of {@code classifiers} ({@code [model][round]}): {@code rounds}
   * rounds, each timing every model once, in an order that rotates from round to round, over {@code
   * steps} {@code trainBatch} calls after three untimed ones.
   */
  static double[][] interleaved(List<Classifier> classifiers, Batch b, int steps, int rounds) {
    Sgd sgd = new Sgd(0.01f);
    int n = classifiers.size();
    double[][] perSecond = new double[n][rounds];
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < n; k++) {
        int m = (r + k) % n;
        Classifier c = classifiers.get(m);
        for (int i = 0; i < 3; i++) {
          c.trainBatch(b.pixels(), b.labels(), sgd);
        }
        long t0 = System.nanoTime();
        for (int i = 0; i < steps; i++) {
          c.trainBatch(b.pixels(), b.labels(), sgd);
        }
        perSecond[m][r] = steps / ((System.nanoTime() - t0) / 1e9);
      }
    }
    return perSecond;
  }

  /** The child JVM: builds the three models, times them, prints the table. */
  public static final class Rounds {
    private Rounds() {}

    /** {@code Rounds STEPS ROUNDS BATCH}: prints the table. */
    public static void main(String[] args) {
      System.out.print(
          table(Integer.parseInt(args[0]), Integer.parseInt(args[1]), Integer.parseInt(args[2])));
    }

    /** The table: every model timed {@code rounds} times, {@code steps} steps of {@code batch}. */
    static String table(int steps, int rounds, int batch) {
      StringBuilder out = new StringBuilder();
      List<String> names = new ArrayList<>();
      List<Classifier> classifiers = new ArrayList<>();
      List<KilnModel> models = new ArrayList<>();
      String[] rows = {"plain LeNet 16/32", "+ scale (mul)", "+ shift (add)", "+ divisor (div)"};
      for (int row = 0; row < rows.length; row++) {
        // div has no fast form: one row, MXNet's broadcast_div.
        boolean[] forms =
            row == 0
                ? new boolean[] {true}
                : row == 3 ? new boolean[] {false} : new boolean[] {true, false};
        for (boolean fast : forms) {
          System.setProperty("kiln.perAxisForm", Boolean.toString(fast));
          KilnModel model =
              switch (row) {
                case 0 -> LeNet1632Model.create(Init.xavier(), 7);
                case 1 -> ScaledLeNet1632Model.create(Init.xavier(), 7);
                case 2 -> ShiftedLeNet1632Model.create(Init.xavier(), 7);
                default -> DividedLeNet1632Model.create(Init.xavier(), 7);
              };
          String symbol = model.symbolJson();
          boolean broadcast = symbol.contains("\"broadcast_");
          if (row > 0 && broadcast == fast) {
            throw new IllegalStateException(
                rows[row] + " was not built in the form it is timed as");
          }
          models.add(model);
          classifiers.add(model.classifier());
          names.add(
              row == 0 ? rows[0] : rows[row] + (fast ? ", Kiln's form" : ", MXNet's broadcast"));
        }
      }
      System.clearProperty("kiln.perAxisForm");
      int n = models.size();
      double[][] perSecond = interleaved(classifiers, Batch.random(batch), steps, rounds);
      out.append(
          String.format(
              Locale.ROOT,
              "A custom layer's cost, batch %d, %d steps per model and round (trainBatch), %d rounds, "
                  + "OMP_NUM_THREADS=1%n",
              batch,
              steps,
              rounds));
      out.append(
          String.format(
              Locale.ROOT, "%-32s %20s %28s%n", "model", "steps/s", "time per step / plain's"));
      for (int m = 0; m < n; m++) {
        double[] ratio = new double[rounds];
        for (int r = 0; r < rounds; r++) {
          ratio[r] = perSecond[0][r] / perSecond[m][r];
        }
        out.append(
            String.format(
                Locale.ROOT,
                "%-32s %20s %28s%n",
                names.get(m),
                spread(perSecond[m], "%.0f"),
                m == 0 ? "1" : spread(ratio, "%.2f")));
      }
      for (KilnModel model : models) {
        model.close();
      }
      return out.toString();
    }

    /** {@code median (min–max)} of {@code values}, as the throughput tables write it. */
    static String spread(double[] values, String format) {
      return ThroughputTable.cell(Arrays.stream(values).boxed().toList(), format);
    }
  }
}
