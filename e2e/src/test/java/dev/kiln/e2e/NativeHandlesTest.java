package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.BrokenNetModel;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.mxnet.HandleCounter;
import dev.kiln.runtime.optim.Adam;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.sample.models.FashionMlpModel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every MXNet handle a model makes is freed by its {@code close()}, and a steady-state training
 * step makes none. Counted by the runtime's handle counter, which the sample app's tests turn on
 * ({@code -Dkiln.mx.countHandles=true}).
 */
class NativeHandlesTest {
  @Test
  void closeFreesEveryHandleTheModelMade(@TempDir Path dir) {
    assertTrue(HandleCounter.enabled(), "tests run with -Dkiln.mx.countHandles=true");
    long before = HandleCounter.live();
    try (NDManager nd = NDManager.newBaseManager();
        Adam adam = new Adam()) {
      FashionMlpModel m = FashionMlpModel.create();
      m.setTraining(true);
      NDArray x8 = nd.zeros(new Shape(8, 784));
      m.forward(x8);
      m.backward(nd.ones(new Shape(8, 10)));
      m.forward(nd.zeros(new Shape(1, 784)));
      m.update(0.1f);
      m.classifier().fit(DataLoader.of(ClassifierFitTest.blobs(50, 1), 16), 1, adam);
      m.save(dir.resolve("m"));
      m.exec(dev.kiln.runtime.graph.Shape.of(3, 784)).forward(false);
      assertTrue(HandleCounter.live() > before, "the model holds handles while open");
      m.close();
    }
    // The optimizer's own state (Adam's moments) is freed by its close(), above.
    assertEquals(before, HandleCounter.live(), "live MXNet handles after close");
  }

  @Test
  void aShortSoakOfTrainingInferenceAndCheckpointsMakesNoHandle(@TempDir Path dir) {
    try (FashionMlpModel m = FashionMlpModel.create();
        Adam adam = new Adam();
        NDManager nd = NDManager.newBaseManager()) {
      Classifier c = m.classifier();
      float[] x = new float[16 * 784];
      int[] y = new int[16];
      NDArray batch = nd.zeros(new Shape(4, 784));
      long created = 0;
      for (int round = 0; round < 400; round++) {
        if (round == 20) {
          created = HandleCounter.created();
        }
        c.trainStep(x, y, adam);
        m.forward(batch).close();
        c.evaluateBatch(x, y);
        m.setTraining(true);
        m.forward(batch).close();
        m.backward(nd.zeros(new Shape(4, 10))).pixels().close();
        m.update(adam);
        m.setTraining(false);
        if (round % 50 == 0) {
          m.save(dir.resolve("soak"));
          m.runtime().loadParams(dir.resolve("soak"));
        }
      }
      assertEquals(
          created,
          HandleCounter.created(),
          "MXNet handles made by 380 rounds of "
              + "training, inference in both modes and checkpoints");
    }
  }

  @Test
  void aGraphThatFailsToBuildLeavesNoHandle() {
    long before = HandleCounter.live(HandleCounter.Kind.SYMBOL);
    for (int i = 0; i < 3; i++) {
      ModelException e = assertThrows(ModelException.class, BrokenNetModel::create);
      assertTrue(e.getMessage().contains("@BrokenLayer(out = 2)"), e.getMessage());
    }
    assertEquals(
        before,
        HandleCounter.live(HandleCounter.Kind.SYMBOL),
        "live symbol handles after three failed builds");
  }

  @Test
  void aSteadyStateTrainingStepMakesNoHandle() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Adam adam = new Adam()) {
      Classifier c = m.classifier();
      float[] x = new float[32 * 784];
      int[] y = new int[32];
      for (int i = 0; i < 3; i++) {
        c.trainStep(x, y, adam);
        c.trainBatch(x, y, adam);
      }
      long created = HandleCounter.created();
      for (int i = 0; i < 100; i++) {
        c.trainStep(x, y, adam);
        c.trainBatch(x, y, adam);
      }
      assertEquals(created, HandleCounter.created(), "handles made by 200 training steps");
    }
  }
}
