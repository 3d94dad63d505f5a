package dev.kiln.e2e.imported;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The benchmark row for imports: MXNet's LeNet imported from its symbol file ({@link
 * ImportedLeNet}) against the same LeNet written in Kiln ({@link HandLeNet}), classifier training
 * steps per second at batch 64, plain SGD, and inference passes ({@code forward}) per second at
 * batch 64, rounds alternating between the two in one JVM. Run it with {@code OMP_NUM_THREADS=1};
 * it prints one line per model and measure, the median of the rounds and their spread.
 */
public final class ImportBench {
  private ImportBench() {}

  /** {@code [rounds [steps]]}, default 7 and 300. */
  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    int steps = args.length > 1 ? Integer.parseInt(args[1]) : 300;
    double[] imported = new double[rounds];
    double[] hand = new double[rounds];
    double[] importedInference = new double[rounds];
    double[] handInference = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      imported[r] = stepsPerSecond(() -> ImportedLeNetModel.create(Init.xavier(), 1), steps);
      hand[r] = stepsPerSecond(() -> HandLeNetModel.create(Init.xavier(), 1), steps);
      importedInference[r] =
          passesPerSecond(() -> ImportedLeNetModel.create(Init.xavier(), 1), steps);
      handInference[r] = passesPerSecond(() -> HandLeNetModel.create(Init.xavier(), 1), steps);
    }
    print("imported LeNet (lenet-symbol.json)", imported, "steps/s");
    print("the same LeNet written in Kiln", hand, "steps/s");
    print("imported LeNet, inference", importedInference, "passes/s");
    print("the same LeNet written in Kiln, inference", handInference, "passes/s");
  }

  /** Inference passes ({@code forward} of a batch of 64, its output read back) per second. */
  private static double passesPerSecond(Supplier<KilnModel> model, int passes) {
    try (KilnModel m = model.get();
        ai.djl.ndarray.NDManager nd = ai.djl.ndarray.NDManager.newBaseManager()) {
      ai.djl.ndarray.NDArray x = nd.randomNormal(new ai.djl.ndarray.types.Shape(64, 1, 28, 28));
      for (int i = 0; i < 20; i++) {
        pass(m, x);
      }
      long start = System.nanoTime();
      for (int i = 0; i < passes; i++) {
        pass(m, x);
      }
      return passes / ((System.nanoTime() - start) / 1e9);
    }
  }

  private static void pass(KilnModel m, ai.djl.ndarray.NDArray x) {
    try (ai.djl.ndarray.NDList out = m.forward(new ai.djl.ndarray.NDList(x))) {
      out.get(0).toFloatArray();
    }
  }

  private static double stepsPerSecond(Supplier<KilnModel> model, int steps) {
    Random rng = new Random(2);
    int batch = 64;
    float[] x = new float[batch * 784];
    int[] y = new int[batch];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) rng.nextGaussian();
    }
    for (int i = 0; i < y.length; i++) {
      y[i] = rng.nextInt(10);
    }
    try (KilnModel m = model.get();
        Sgd sgd = new Sgd(0.1f)) {
      Classifier c = m.classifier();
      for (int i = 0; i < 20; i++) {
        c.trainStep(x, y, sgd);
      }
      Mx.check(Mx.api().MXNDArrayWaitAll(), "MXNDArrayWaitAll");
      long start = System.nanoTime();
      for (int i = 0; i < steps; i++) {
        c.trainStep(x, y, sgd);
      }
      Mx.check(Mx.api().MXNDArrayWaitAll(), "MXNDArrayWaitAll");
      return steps / ((System.nanoTime() - start) / 1e9);
    }
  }

  private static void print(String what, double[] rates, String unit) {
    double[] s = rates.clone();
    Arrays.sort(s);
    System.out.printf(
        Locale.ROOT,
        "%-42s %7.1f %s (rounds %.1f to %.1f)%n",
        what,
        s[s.length / 2],
        unit,
        s[0],
        s[s.length - 1]);
  }
}
