package dev.kiln.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.kiln.ops.file.SymbolFile;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.dist.DataParallel;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.infer.ChannelPadding;
import dev.kiln.runtime.infer.PaddedConvolution;
import dev.kiln.runtime.optim.Adam;
import dev.kiln.runtime.optim.FusedOptimizer;
import dev.kiln.runtime.optim.Sgd;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Training with the GEMM convolutions' filters padded to whole blocks of 16 ({@link
 * ChannelPadding#training}) is training the declared model: random convolutional classifiers with
 * filter counts that are not multiples of 16, each trained twice from the same weights on the same
 * batches, once with padding turned off ({@code -Dkiln.channelPadding=false} while its classifier
 * is made), with SGD with momentum and weight decay and with Adam; every parameter and batch-norm
 * statistic ends within 1e-5, the padded model's arrays and its checkpoint keep the declared
 * shapes, {@code evaluateBatch} (the padded graph in inference mode) gives the same loss, and a
 * data-parallel run over two local contexts ends the same way.
 *
 * <p>The models' activations and pooling are smooth (tanh, sigmoid, softrelu; average pooling) for
 * the runs of several steps: a ReLU or a max pooling turns a last-bit difference between the two
 * kernels' sums into a different branch, and so a different gradient, on an unlucky value (seen on
 * the sample LeNet, whose step-3 gradients of its first convolution differed by 0.4 % of their
 * largest magnitude). Models with them are compared after one step, on the outputs and gradients of
 * the same weights.
 */
class PaddedTrainingTest {
  private static final int MODELS = Integer.getInteger("kiln.differential.paddedModels", 8);
  private static final double RTOL = 1e-5;
  private static final double ATOL = 1e-5;

  @TempDir Path dir;

  @TestFactory
  List<DynamicTest> paddedTrainingEqualsUnpadded() {
    List<DynamicTest> tests = new ArrayList<>();
    LongStream.rangeClosed(1, MODELS)
        .forEach(
            seed ->
                tests.add(
                    DynamicTest.dynamicTest(
                        "padded model " + seed, () -> check(PaddedModels.draw(seed)))));
    return tests;
  }

  private void check(PaddedModels.Drawn drawn) {
    ModelCompiler.Compiled compiled = ModelCompiler.compile(drawn.model());
    String label = drawn.model().label() + " " + drawn.features();
    int steps = drawn.smooth() ? 4 : 1;
    List<Supplier<FusedOptimizer>> optimizers =
        List.of(
            () -> Sgd.builder().learningRate(0.05f).momentum(0.9f).weightDecay(1e-3f).build(),
            () -> Adam.builder().learningRate(0.01f).epsilon(1e-4f).build());
    for (int o = 0; o < optimizers.size(); o++) {
      try (DiffModel plain = create(compiled, drawn, false);
          DiffModel padded = create(compiled, drawn, true);
          FusedOptimizer a = optimizers.get(o).get();
          FusedOptimizer b = optimizers.get(o).get()) {
        List<PaddedConvolution> pads =
            ChannelPadding.trainingPadding(padded.kiln().runtime().graph());
        assertEquals(
            drawn.padded(),
            pads.stream().map(PaddedConvolution::name).toList(),
            label + ": the convolutions padded");
        SymbolFile trained = SymbolFile.parse(padded.kiln().classifier().graph().toJson());
        for (PaddedConvolution c : pads) {
          assertEquals(
              String.valueOf(c.paddedTo()),
              trained.node(c.name()).attrs().get("num_filter"),
              label + ": filters the padded classifier's " + c.name() + " runs");
        }
        SymbolFile declared = SymbolFile.parse(plain.kiln().classifier().graph().toJson());
        for (PaddedConvolution c : pads) {
          assertEquals(
              String.valueOf(c.filters()),
              declared.node(c.name()).attrs().get("num_filter"),
              label + ": filters the unpadded classifier's " + c.name() + " runs");
        }
        Random r = new Random(drawn.model().seed() * 31 + o);
        for (int step = 0; step < steps; step++) {
          int batch = 4 + r.nextInt(9);
          float[] x = drawn.batch(r, batch);
          int[] y = drawn.labels(r, batch);
          plain.kiln().classifier().trainBatch(x, y, a);
          padded.kiln().classifier().trainBatch(x, y, b);
        }
        String what = label + ", " + a.getClass().getSimpleName() + ", " + steps + " steps";
        same(what, plain, padded);
        declaredShapes(what, plain, padded);
        // Inference through the padded graph reads the declared statistics.
        float[] x = drawn.batch(r, 6);
        int[] y = drawn.labels(r, 6);
        double expected = plain.kiln().classifier().evaluateBatch(x, y).lossSum();
        double actual = padded.kiln().classifier().evaluateBatch(x, y).lossSum();
        assertEquals(
            expected, actual, 1e-5 * Math.max(1, Math.abs(expected)), what + ": evaluateBatch");
        if (o == 0) {
          Path prefix = dir.resolve("padded-" + drawn.model().seed()).resolve("model");
          padded.save(prefix);
          try (DiffModel loaded =
              DiffModel.load(compiled.loader(), drawn.model().modelInterface(), prefix)) {
            declaredShapes(what + ", the checkpoint", plain, loaded);
            for (ParameterStore.Slot s : padded.kiln().runtime().slots()) {
              assertNull(
                  Compare.exact(s.weight().toFloatArray(), loaded.param(s.name())),
                  what + ": " + s.name() + " read back from the checkpoint");
            }
          }
        }
      }
    }
    if (drawn.smooth()) {
      dataParallel(compiled, drawn, label);
    }
  }

  /** Two local contexts, two steps of SGD: the padded run's parameters equal the plain run's. */
  private void dataParallel(ModelCompiler.Compiled compiled, PaddedModels.Drawn drawn, String l) {
    float[][] ends = new float[2][];
    for (int k = 0; k < 2; k++) {
      try (DiffModel m = create(compiled, drawn, k == 1);
          DataParallel dp = DataParallel.local(m.kiln(), 2);
          Sgd sgd = Sgd.builder().learningRate(0.05f).momentum(0.9f).build()) {
        Random r = new Random(drawn.model().seed());
        for (int step = 0; step < 2; step++) {
          int batch = 8;
          dp.step(drawn.batch(r, batch), drawn.labels(r, batch), sgd, batch);
        }
        ends[k] = dp.replicaParameters(1);
        assertNull(Compare.exact(ends[k], dp.replicaParameters(0)), l + ": replicas agree");
      }
    }
    assertNull(Compare.close(ends[0], ends[1], RTOL, ATOL), l + ": data-parallel parameters");
  }

  /**
   * A model from the drawn sources and the drawn initialiser seed, whose classifier is made now,
   * padded or not.
   */
  private static DiffModel create(
      ModelCompiler.Compiled compiled, PaddedModels.Drawn drawn, boolean padded) {
    DiffModel m =
        DiffModel.create(
            compiled.loader(), drawn.model().modelInterface(), "xavier", drawn.model().seed());
    String before = System.getProperty(ChannelPadding.SWITCH);
    try {
      System.setProperty(ChannelPadding.SWITCH, Boolean.toString(padded));
      m.kiln().classifier();
    } finally {
      if (before == null) {
        System.clearProperty(ChannelPadding.SWITCH);
      } else {
        System.setProperty(ChannelPadding.SWITCH, before);
      }
    }
    return m;
  }

  private static void same(String what, DiffModel plain, DiffModel padded) {
    Map<String, float[]> expected = state(plain.kiln());
    Map<String, float[]> actual = state(padded.kiln());
    assertEquals(expected.keySet(), actual.keySet(), what);
    for (String name : expected.keySet()) {
      String diff = Compare.close(expected.get(name), actual.get(name), RTOL, ATOL);
      assertNull(diff, what + ": " + name);
    }
  }

  /** Every parameter and auxiliary state by name. */
  private static Map<String, float[]> state(KilnModel m) {
    Map<String, float[]> out = new LinkedHashMap<>();
    for (ParameterStore.Slot s : m.runtime().slots()) {
      out.put(s.name(), s.weight().toFloatArray());
    }
    for (ParameterStore.AuxSlot a : m.runtime().auxSlots()) {
      out.put(a.name(), a.value().toFloatArray());
    }
    return out;
  }

  private static void declaredShapes(String what, DiffModel plain, DiffModel other) {
    for (ParameterStore.Slot s : plain.kiln().runtime().slots()) {
      ParameterStore.Slot t =
          other.kiln().runtime().slots().stream()
              .filter(x -> x.name().equals(s.name()))
              .findFirst()
              .orElseThrow();
      assertEquals(s.spec().shape(), t.weight().shape(), what + ": shape of " + s.name());
      assertEquals(s.spec().shape(), t.grad().shape(), what + ": gradient shape of " + s.name());
    }
    for (ParameterStore.AuxSlot a : other.kiln().runtime().auxSlots()) {
      assertEquals(a.spec().shape(), a.value().shape(), what + ": shape of " + a.name());
    }
    assertFalse(other.kiln().runtime().slots().isEmpty(), what);
  }
}
