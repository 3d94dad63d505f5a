package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.sample.models.FashionLeNetGraph;
import dev.kiln.sample.models.FashionLeNetModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sample CNN: shapes, classifier training on images, and its checkpoint. */
class LeNetTest {
  /** Ten classes of 28x28 images: a bright 7x7 square at a class-specific place, plus noise. */
  private static float[] images(Random rng, int[] labels) {
    float[] x = new float[labels.length * 784];
    for (int i = 0; i < labels.length; i++) {
      int row = (labels[i] / 5) * 14 + 3;
      int col = (labels[i] % 5) * 5 + 1;
      for (int p = 0; p < 784; p++) {
        int r = p / 28;
        int c = p % 28;
        boolean on = r >= row && r < row + 7 && c >= col && c < col + 4;
        x[i * 784 + p] = (on ? 1f : 0f) + 0.3f * (float) rng.nextGaussian();
      }
    }
    return x;
  }

  @Test
  void shapesAreInferredAtCompileTime() {
    assertEquals(Shape.of(-1, 50, 4, 4), FashionLeNetGraph.POOL2_SHAPE);
    assertEquals(Shape.of(256, 800), FashionLeNetGraph.HIDDEN_WEIGHT_SHAPE);
    assertEquals(Shape.of(20, 1, 5, 5), FashionLeNetGraph.CONV1_WEIGHT_SHAPE);
  }

  /**
   * The classifier learns ten image classes that only the position of a shape tells apart; its
   * batch norms' moving averages, learnt on the way, go into the checkpoint and come back.
   */
  @Test
  void classifierLearnsImagesAndTheCheckpointKeepsTheMovingAverages(@TempDir Path dir)
      throws Exception {
    Random rng = new Random(3);
    try (FashionLeNetModel m = FashionLeNetModel.create(Init.xavier(), 2);
        Sgd sgd = new Sgd(0.1f);
        NDManager nd = NDManager.newBaseManager()) {
      Classifier c = m.classifier();
      assertEquals(10, c.classes());
      for (int step = 0; step < 60; step++) {
        int[] y = new int[32];
        for (int i = 0; i < y.length; i++) {
          y[i] = rng.nextInt(10);
        }
        c.trainBatch(images(rng, y), y, sgd);
      }
      int[] y = new int[200];
      for (int i = 0; i < y.length; i++) {
        y[i] = i % 10;
      }
      float[] test = images(rng, y);
      Classifier.Result r = c.evaluateBatch(test, y);
      assertTrue(r.accuracy() > 0.95, "accuracy on held-out images: " + r.accuracy());
      assertFalse(
          java.util.Arrays.equals(new float[20], m.params().bn1MovingMean().get()),
          "training updated the moving averages");

      m.save(dir.resolve("lenet"));
      assertTrue(Files.readString(dir.resolve("lenet-symbol.json")).contains("\"bn2_moving_var\""));
      try (FashionLeNetModel loaded = FashionLeNetModel.load(dir.resolve("lenet"))) {
        assertArrayEquals(
            m.params().bn2MovingVar().get(), loaded.params().bn2MovingVar().get(), 0f);
        float[] x = java.util.Arrays.copyOf(test, 784 * 4);
        ai.djl.ndarray.types.Shape four = new ai.djl.ndarray.types.Shape(4, 1, 28, 28);
        assertArrayEquals(
            m.forward(nd.create(x, four)).toFloatArray(),
            loaded.forward(nd.create(x, four)).toFloatArray(),
            1e-6f);
      }
    }
  }
}
