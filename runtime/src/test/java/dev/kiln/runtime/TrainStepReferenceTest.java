package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;

import ai.djl.ndarray.NDManager;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.optim.LearningRate;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The classifier's training step, with everything that makes it fast (the batch written behind a
 * write fence into alternating executors, the update as one inner product from the weights' kept
 * copy, the gradient check left to the next call and scanned two floats at a time, operator
 * attributes turned into C strings once), against the plainest reference: the same model's
 * gradients from {@code computeGradients} and the SGD update {@code w - lr · g} in Java, which
 * rounds as MXNet's {@code sgd_update} does. On dense networks of random sizes, batch sizes and
 * learning rates (which change, as a schedule's do), every parameter must agree to the bit after
 * every step; with and without oneDNN (issue 38).
 */
class TrainStepReferenceTest {
  private static final int MODELS = 6;
  private static final int STEPS = 14;

  /** in → dense (random units, activation) → dense (classes) → softmax, as a classifier. */
  private static Graph mlp(int in, int hidden, Act act, int classes, boolean training) {
    try (GraphBuilder b = new GraphBuilder("Ref", training)) {
      Sym x = b.input(src("x"), Shape.of(Shape.BATCH, in));
      Sym h = b.node(src("hidden"), DenseOp.units(hidden).activation(act), x);
      Sym y = b.node(src("logits"), DenseOp.units(classes), h);
      return b.build(List.of(b.node(src("probs"), SoftmaxOp.axis(-1).classifierHead(), y)));
    }
  }

  private static NodeSource src(String node) {
    return new NodeSource(node, "Ref." + node + "()", "@" + node);
  }

  /** Model {@code seed}'s sizes, data and learning rates; both twins train on them. */
  private record Case(
      int in, int hidden, Act act, int classes, int[] batches, float[] lrs, long seed) {
    static Case of(long seed) {
      SplittableRandom r = new SplittableRandom(seed);
      int batch = 1 + r.nextInt(48);
      // Some models alternate two batch sizes: two pairs of executors over the same parameters.
      int other = r.nextBoolean() ? batch : 1 + r.nextInt(48);
      int[] batches = new int[STEPS];
      float[] lrs = new float[STEPS];
      float[] rates = {0.2f, 0.1f, 0.05f, 0.013f};
      float lr = rates[r.nextInt(rates.length)];
      for (int t = 0; t < STEPS; t++) {
        batches[t] = t % 2 == 0 ? batch : other;
        if (r.nextInt(4) == 0) {
          lr = rates[r.nextInt(rates.length)]; // held for a while, then changed
        }
        lrs[t] = lr;
      }
      Act act = r.nextBoolean() ? Act.RELU : Act.TANH;
      return new Case(
          2 + r.nextInt(80), 1 + r.nextInt(40), act, 2 + r.nextInt(11), batches, lrs, seed);
    }

    @Override
    public String toString() {
      return String.format(
          "model %d (%d -> %d %s -> %d, batches %s)",
          seed, in, hidden, act, classes, Arrays.toString(batches));
    }

    Graph graph(boolean training) {
      return mlp(in, hidden, act, classes, training);
    }

    float[] features(int t) {
      SplittableRandom r = new SplittableRandom(seed * 1000 + t);
      float[] x = new float[batches[t] * in];
      for (int i = 0; i < x.length; i++) {
        x[i] = (float) r.nextDouble(-2, 2);
      }
      return x;
    }

    int[] labels(int t) {
      return new SplittableRandom(seed * 1000 + t + 500).ints(batches[t], 0, classes).toArray();
    }
  }

  /** Every trainable parameter of {@code m}, in slot order. */
  private static List<float[]> params(ModelRuntime m) {
    List<float[]> out = new ArrayList<>();
    for (ParameterStore.Slot s : m.slots()) {
      out.add(m.param(s.name()).get());
    }
    return out;
  }

  /** Trains model {@code seed} both ways and compares every parameter after every step. */
  private static void sameAsReference(long seed) {
    Case c = Case.of(seed);
    try (ModelRuntime fast = new ModelRuntime("Ref", c.graph(false), Init.xavier(), seed);
        ModelRuntime plain = new ModelRuntime("Ref", c.graph(false), Init.xavier(), seed);
        Sgd sgd = new Sgd(c.lrs[0])) {
      Classifier fastC = fast.classifier(() -> c.graph(true));
      Classifier plainC = plain.classifier(() -> c.graph(true));
      List<float[]> start = params(fast);
      for (int t = 0; t < STEPS; t++) {
        sgd.schedule(LearningRate.constant(c.lrs[t]));
        fastC.trainStep(c.features(t), c.labels(t), sgd);
        plainC.computeGradients(c.features(t), c.labels(t));
        for (ParameterStore.Slot s : plain.slots()) {
          float[] w = plain.param(s.name()).get();
          float[] g = plain.param(s.name()).grad();
          for (int i = 0; i < w.length; i++) {
            w[i] = w[i] - c.lrs[t] * g[i];
          }
          plain.param(s.name()).set(w);
        }
        List<float[]> expected = params(plain);
        List<float[]> actual = params(fast);
        for (int p = 0; p < expected.size(); p++) {
          float[] e = expected.get(p);
          float[] a = actual.get(p);
          for (int i = 0; i < e.length; i++) {
            if (Float.floatToIntBits(e[i]) != Float.floatToIntBits(a[i])) {
              throw new AssertionError(
                  String.format(
                      "%s, step %d (lr %s, batch %d): %s element %d is %s, the reference %s",
                      c, t, c.lrs[t], c.batches[t], fast.slots().get(p).name(), i, a[i], e[i]));
            }
          }
        }
      }
      assertFalse(Arrays.equals(start.get(0), params(fast).get(0)), c + " trained");
    }
  }

  private static void randomModels(NDManager unused) {
    for (long seed = 1; seed <= MODELS; seed++) {
      sameAsReference(seed);
    }
  }

  /** Every check, by name. */
  private static final Map<String, Consumer<NDManager>> CHECKS =
      Map.of("randomModels", TrainStepReferenceTest::randomModels);

  /** Runs every check (with {@code MXNET_MKLDNN_ENABLED=0}: on MXNet's own kernels). */
  public static void main(String[] args) {
    OneDnnOff.main(CHECKS);
  }

  @Test
  void trainStepGivesTheReferenceParametersToTheBitOnRandomDenseModels() {
    try (NDManager nd = NDManager.newBaseManager()) {
      CHECKS.get("randomModels").accept(nd);
    }
  }

  @Test
  void withoutOneDnnTheSameChecksPass() throws IOException, InterruptedException {
    OneDnnOff.assertAllPass(TrainStepReferenceTest.class, CHECKS);
  }
}
