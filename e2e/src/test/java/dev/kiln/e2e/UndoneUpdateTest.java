package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.NonFiniteException;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.optim.Adam;
import dev.kiln.runtime.optim.FusedOptimizer;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.BatchStats;
import dev.kiln.runtime.train.FitContext;
import dev.kiln.runtime.train.FitResult;
import dev.kiln.runtime.train.TrainingListener;
import dev.kiln.sample.models.FashionLeNetModel;
import dev.kiln.sample.models.FashionMlpModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gradient holding NaN is never left applied, although Kiln queues the update before it knows
 * (issue 14: the check runs while MXNet updates, or at the model's next call after {@code
 * trainStep}): the weights, the optimizer's state and its step count come back exactly. Each test
 * trains twins from one seed, feeds one of them a bad batch, and then requires both to agree to the
 * bit, also after a further good step (Adam's moments and bias correction would differ if any part
 * of the bad step stayed).
 */
class UndoneUpdateTest {
  private static final int N = 8;
  private static final int[] LABELS = {0, 1, 2, 3, 4, 5, 6, 7};

  /** A good batch: features in [0, 1), different for each {@code k}. */
  private static float[] batch(int k) {
    float[] x = new float[N * 784];
    for (int i = 0; i < x.length; i++) {
      x[i] = ((i * 31 + k * 17) % 101) / 101f;
    }
    return x;
  }

  /**
   * Finite features so large that the hidden layer overflows: the loss and every gradient are NaN.
   */
  private static float[] overflowing() {
    float[] x = new float[N * 784];
    java.util.Arrays.fill(x, 3e38f);
    return x;
  }

  private static void assertSameModel(KilnModel expected, KilnModel actual) {
    for (ParameterStore.Slot s : expected.runtime().slots()) {
      assertArrayEquals(
          expected.runtime().param(s.name()).get(),
          actual.runtime().param(s.name()).get(),
          0f,
          s.name());
    }
    for (ParameterStore.AuxSlot a : expected.runtime().auxSlots()) {
      assertArrayEquals(
          expected.runtime().auxState(a.name()).get(),
          actual.runtime().auxState(a.name()).get(),
          0f,
          a.name());
    }
  }

  private static void twins(
      Supplier<KilnModel> create, Supplier<FusedOptimizer> optimizer, int goodSteps) {
    try (KilnModel a = create.get();
        KilnModel b = create.get();
        FusedOptimizer optA = optimizer.get();
        FusedOptimizer optB = optimizer.get()) {
      for (int k = 0; k < goodSteps; k++) {
        a.classifier().trainStep(batch(k), LABELS, optA);
        b.classifier().trainStep(batch(k), LABELS, optB);
      }
      // trainStep returns before its gradients are known ...
      a.classifier().trainStep(overflowing(), LABELS, optA);
      // ... and the model's next call, whatever it is, reports the bad one first.
      NonFiniteException e =
          assertThrows(NonFiniteException.class, () -> a.runtime().param("logits_bias").get());
      assertTrue(
          e.getMessage()
              .startsWith(
                  a.name()
                      + ": update "
                      + (goodSteps + 1)
                      + " not applied (found as the model's next call began"),
          e.getMessage());
      assertEquals(goodSteps, optA.stepCount(), "the optimizer's step is taken back");
      assertSameModel(b, a);
      // Once reported, the model is usable: the next call does not throw again.
      a.runtime().param("logits_bias").get();
      a.classifier().trainStep(batch(goodSteps), LABELS, optA);
      b.classifier().trainStep(batch(goodSteps), LABELS, optB);
      assertSameModel(b, a);
      assertEquals(optB.stepCount(), optA.stepCount());
    }
  }

  @Test
  void aBadTrainStepIsReportedByTheNextCallAndTakenBackWithAdamsMoments() {
    twins(() -> FashionMlpModel.create(Init.xavier(), 7), () -> new Adam(1e-2f), 3);
  }

  @Test
  void aBadFirstStepLeavesTheOptimizerAsNew() {
    twins(() -> FashionMlpModel.create(Init.xavier(), 7), () -> new Adam(1e-2f), 0);
  }

  @Test
  void plainSgdThroughTheFastPathIsTakenBackToo() {
    // Steps 2 and later of constant-rate SGD run as ScaledAddStep, not sgd_update.
    twins(() -> FashionMlpModel.create(Init.xavier(), 7), () -> new Sgd(0.1f), 4);
  }

  @Test
  void batchNormsMovingStatisticsNeverSeeTheBadWeights() {
    twins(
        () -> FashionLeNetModel.create(Init.xavier(), 7),
        () -> Sgd.builder().learningRate(0.05f).momentum(0.9f).build(),
        2);
  }

  @Test
  void aBadUpdateAfterBackwardThrowsAtOnceAndIsTakenBack() {
    try (FashionMlpModel a = FashionMlpModel.create(Init.xavier(), 3);
        FashionMlpModel b = FashionMlpModel.create(Init.xavier(), 3);
        Adam optA = new Adam(1e-2f);
        Adam optB = new Adam(1e-2f);
        NDManager nd = NDManager.newBaseManager()) {
      a.setTraining(true);
      b.setTraining(true);
      for (int k = 0; k < 2; k++) {
        for (FashionMlpModel m : new FashionMlpModel[] {a, b}) {
          m.forward(nd.create(batch(k), new Shape(N, 784)));
          m.backward(nd.ones(new Shape(N, 10)));
          m.update(m == a ? optA : optB);
        }
      }
      a.forward(nd.create(batch(2), new Shape(N, 784)));
      float[] head = new float[N * 10];
      head[7] = Float.NaN;
      a.backward(nd.create(head, new Shape(N, 10)));
      NonFiniteException e = assertThrows(NonFiniteException.class, () -> a.update(optA));
      assertTrue(
          e.getMessage().startsWith("FashionMlpModel: update 3 not applied: the gradient of "),
          e.getMessage());
      assertEquals(2, optA.stepCount());
      assertSameModel(b, a);
      a.runtime().zeroGradients();
      for (FashionMlpModel m : new FashionMlpModel[] {a, b}) {
        m.forward(nd.create(batch(3), new Shape(N, 784)));
        m.backward(nd.ones(new Shape(N, 10)));
        m.update(m == a ? optA : optB);
      }
      assertSameModel(b, a);
    }
  }

  @Test
  void byHandTheMovingStatisticsComeBackWithARefusedUpdate() {
    try (FashionLeNetModel a = FashionLeNetModel.create(Init.xavier(), 4);
        FashionLeNetModel b = FashionLeNetModel.create(Init.xavier(), 4);
        Sgd optA = new Sgd(0.05f);
        Sgd optB = new Sgd(0.05f);
        NDManager nd = NDManager.newBaseManager()) {
      Shape images = new Shape(N, 1, 28, 28);
      for (FashionLeNetModel m : new FashionLeNetModel[] {a, b}) {
        m.setTraining(true);
        m.forward(nd.create(batch(0), images));
        m.backward(nd.ones(new Shape(N, 10)));
        m.update(m == a ? optA : optB);
      }
      // Two passes accumulate the refused update's gradients: a good one, then one whose batch
      // norm statistics overflow.
      a.forward(nd.create(batch(1), images));
      a.backward(nd.ones(new Shape(N, 10)));
      a.forward(nd.create(overflowing(), images));
      a.backward(nd.ones(new Shape(N, 10)));
      NonFiniteException e = assertThrows(NonFiniteException.class, () -> a.update(optA));
      assertTrue(e.getMessage().contains("zeroGradients() discards them"), e.getMessage());
      a.runtime().zeroGradients();
      assertSameModel(b, a);
    }
  }

  @Test
  void fitStopsAtTheBadBatchWithTheWeightsFromBeforeIt() {
    Dataset data = withBadBatch(4);
    try (FashionMlpModel a = FashionMlpModel.create(Init.xavier(), 5);
        FashionMlpModel b = FashionMlpModel.create(Init.xavier(), 5);
        Sgd optA = new Sgd(0.1f);
        Sgd optB = new Sgd(0.1f)) {
      FitResult r = a.classifier().fit(DataLoader.of(data, N), 1, optA);
      assertTrue(
          r.stopReason() != null
              && r.stopReason()
                  .startsWith(
                      "epoch 1, batch 4: FashionMlpModel: update 4 not applied (found as the"
                          + " model's next call began"),
          "" + r);
      for (int k = 0; k < 3; k++) {
        b.classifier().trainStep(batch(k), LABELS, optB);
      }
      assertSameModel(b, a);
    }
  }

  /** Five batches of {@link #N}; batch {@code bad} (counted from 1) overflows. */
  private static Dataset withBadBatch(int bad) {
    int batches = 5;
    float[] x = new float[batches * N * 784];
    int[] y = new int[batches * N];
    for (int k = 0; k < batches; k++) {
      float[] b = k == bad - 1 ? overflowing() : batch(k);
      System.arraycopy(b, 0, x, k * N * 784, b.length);
      System.arraycopy(LABELS, 0, y, k * N, N);
    }
    return new Dataset(x, y, 784, 10);
  }

  @Test
  void saveAfterABadTrainStepRefusesAndTheNextSaveWritesTheRestoredModel(@TempDir Path dir) {
    try (FashionMlpModel a = FashionMlpModel.create(Init.xavier(), 9);
        FashionMlpModel b = FashionMlpModel.create(Init.xavier(), 9);
        Sgd optA = new Sgd(0.1f);
        Sgd optB = new Sgd(0.1f)) {
      a.classifier().trainStep(batch(0), LABELS, optA);
      b.classifier().trainStep(batch(0), LABELS, optB);
      a.classifier().trainStep(overflowing(), LABELS, optA);
      Path prefix = dir.resolve("m");
      assertThrows(NonFiniteException.class, () -> a.save(prefix));
      assertFalse(Files.exists(dir.resolve("m-0000.params")), "nothing written");
      a.save(prefix);
      try (FashionMlpModel loaded = FashionMlpModel.load(prefix)) {
        assertSameModel(b, loaded);
      }
    }
  }

  @Test
  void aListenerNeverSeesTheWeightsOfARefusedUpdate() {
    List<Float> seen = new ArrayList<>();
    try (FashionMlpModel a = FashionMlpModel.create(Init.xavier(), 5);
        Sgd sgd = new Sgd(0.1f)) {
      TrainingListener reader =
          new TrainingListener() {
            @Override
            public void onBatchEnd(FitContext context, BatchStats stats) {
              seen.add(a.params().hiddenWeight().get()[0]);
            }
          };
      // The listener of batch 3 runs while batch 4's update is queued: its read makes the check,
      // and fit stops with the refusal as its reason.
      FitResult r = a.classifier().fit(DataLoader.of(withBadBatch(4), N), 1, sgd, reader);
      assertTrue(
          r.stopReason().startsWith("epoch 1, batch 4: FashionMlpModel: update 4 not applied"),
          r.stopReason());
      assertEquals(2, seen.size(), "batch 3's read is the one that threw: " + seen);
      seen.forEach(v -> assertTrue(Float.isFinite(v), "" + seen));
    }
  }

  @Test
  void aListenerStoppingFitDoesNotHideTheLastUpdatesCheck() {
    try (FashionMlpModel a = FashionMlpModel.create(Init.xavier(), 5);
        FashionMlpModel b = FashionMlpModel.create(Init.xavier(), 5);
        Sgd optA = new Sgd(0.1f);
        Sgd optB = new Sgd(0.1f)) {
      TrainingListener stopAt3 =
          new TrainingListener() {
            @Override
            public void onBatchEnd(FitContext context, BatchStats stats) {
              if (stats.batch() == 3) {
                context.stop("enough");
              }
            }
          };
      // Batch 3's listener stops fit once batch 4 (the bad one) is queued.
      FitResult r = a.classifier().fit(DataLoader.of(withBadBatch(4), N), 1, optA, stopAt3);
      assertTrue(
          r.stopReason().startsWith("epoch 1, batch 4: FashionMlpModel: update 4 not applied"),
          r.stopReason());
      for (int k = 0; k < 3; k++) {
        b.classifier().trainStep(batch(k), LABELS, optB);
      }
      assertSameModel(b, a);
    }
  }

  @Test
  void closingWithACheckPendingIsQuiet() {
    FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 1);
    try (Sgd sgd = new Sgd(0.1f)) {
      m.classifier().trainStep(overflowing(), LABELS, sgd);
      m.close();
    }
    assertThrows(IllegalStateException.class, () -> m.runtime().param("logits_bias").get());
  }
}
