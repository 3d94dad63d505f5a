package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.e2e.models.BranchesModel;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.NonFiniteException;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.sample.models.FashionMlpModel;
import org.junit.jupiter.api.Test;

/**
 * What a model does with a mistake: bad data (NaN, wrong sizes, empty batches), gradients used
 * twice or never, and calls in the wrong order. Each fails at once, before anything reaches MXNet,
 * with a message naming what was expected and what was given, and changes nothing.
 */
class MisuseTest {
  private static float[] ramp(int n) {
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = (i % 17) / 17f;
    }
    return v;
  }

  // --- non-finite data --------------------------------------------------------------------

  @Test
  void aNanFeatureInATrainingBatchIsRejectedAndTheWeightsStayClean() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f)) {
      float[] x = ramp(4 * 784);
      x[2 * 784 + 5] = Float.NaN;
      float[] before = m.params().hiddenWeight().get();
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.classifier().trainBatch(x, new int[] {0, 1, 2, 3}, sgd));
      assertEquals(
          "FashionMlpModel: feature 5 of example 2 is NaN; training and evaluation "
              + "data must be finite (a NaN would silently poison the weights)",
          e.getMessage());
      assertArrayEquals(before, m.params().hiddenWeight().get(), 0f);
    }
  }

  @Test
  void aNanRowIsRejectedByInferenceInsteadOfGivingAConfidentAnswer() {
    try (FashionMlpModel m = FashionMlpModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      float[] x = ramp(3 * 784);
      x[784 + 100] = Float.POSITIVE_INFINITY;
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> m.forward(nd.create(x, new Shape(3, 784))));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "FashionMlpModel input 'pixels': example 1, value "
                      + "100 of 784 is Infinity; inputs must be finite"),
          e.getMessage());
      x[784 + 100] = 0.5f;
      assertEquals(
          3 * 10, m.forward(nd.create(x, new Shape(3, 784))).size(), "the model still works");
    }
  }

  @Test
  void aNanGradientIsNotAppliedAndNamesTheUpdate() {
    try (FashionMlpModel m = FashionMlpModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      m.setTraining(true);
      m.forward(nd.create(ramp(2 * 784), new Shape(2, 784)));
      float[] head = new float[20];
      head[3] = Float.NaN;
      m.backward(nd.create(head, new Shape(2, 10)));
      float[] before = m.params().logitsWeight().get();
      NonFiniteException e = assertThrows(NonFiniteException.class, () -> m.update(0.1f));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "FashionMlpModel: update 1 not applied: the gradient "
                      + "of hidden_weight[128, 784] element "),
          e.getMessage());
      assertArrayEquals(before, m.params().logitsWeight().get(), 0f);
      float[] g = m.params().logitsWeight().grad();
      assertTrue(Float.isNaN(g[3 * 128]), "the gradients are kept for inspection");
    }
  }

  // --- gradients are used once -------------------------------------------------------------

  @Test
  void updateWithoutBackwardIsAnError() {
    try (FashionMlpModel m = FashionMlpModel.create()) {
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> m.update(0.1f));
      assertEquals(
          "FashionMlpModel.update: no gradient to apply: no backward pass since the "
              + "last update; each gradient is applied once (call backward after a training-mode "
              + "forward)",
          e.getMessage());
    }
  }

  @Test
  void backwardThenUpdateAppliesTheGradientOnceAndASecondUpdateIsAnError() {
    try (FashionMlpModel m = FashionMlpModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      m.setTraining(true);
      m.forward(nd.create(ramp(2 * 784), new Shape(2, 784)));
      m.backward(nd.ones(new Shape(2, 10)));
      float[] before = m.params().logitsBias().get();
      float[] g = m.params().logitsBias().grad();
      m.update(0.5f);
      float[] after = m.params().logitsBias().get();
      for (int i = 0; i < after.length; i++) {
        assertEquals(before[i] - 0.5f * g[i], after[i], 1e-6f);
      }
      assertThrows(IllegalStateException.class, () -> m.update(0.5f));
      assertArrayEquals(
          after, m.params().logitsBias().get(), 0f, "the second update changed " + "nothing");
    }
  }

  @Test
  void updateAfterAClassifierStepIsAnErrorInsteadOfApplyingItsGradientAgain() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f)) {
      m.classifier().trainBatch(ramp(4 * 784), new int[] {0, 1, 2, 3}, sgd);
      float[] after = m.params().hiddenWeight().get();
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> m.update(0.1f));
      assertEquals(
          "FashionMlpModel.update: no gradient to apply: the classifier's training "
              + "step already applied the latest gradients; each gradient is applied once (call "
              + "backward after a training-mode forward)",
          e.getMessage());
      assertArrayEquals(after, m.params().hiddenWeight().get(), 0f);
    }
  }

  @Test
  void aClassifierStepRefusesToOverwriteUnappliedGradients() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f);
        NDManager nd = NDManager.newBaseManager()) {
      m.setTraining(true);
      m.forward(nd.create(ramp(2 * 784), new Shape(2, 784)));
      m.backward(nd.ones(new Shape(2, 10)));
      Classifier c = m.classifier();
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> c.trainBatch(ramp(4 * 784), new int[] {0, 1, 2, 3}, sgd));
      assertTrue(
          e.getMessage()
              .contains(
                  "call update(...) to apply them or zeroGradients() to " + "discard them first"),
          e.getMessage());
      m.runtime().zeroGradients();
      c.trainBatch(ramp(4 * 784), new int[] {0, 1, 2, 3}, sgd);
    }
  }

  @Test
  void backwardAfterAClassifierStepStartsFromZeroGradients() {
    try (FashionMlpModel twice = FashionMlpModel.create();
        FashionMlpModel once = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f);
        NDManager nd = NDManager.newBaseManager()) {
      NDArray x = nd.create(ramp(2 * 784), new Shape(2, 784));
      NDArray head = nd.ones(new Shape(2, 10));
      twice.classifier().trainBatch(ramp(4 * 784), new int[] {0, 1, 2, 3}, sgd);
      once.params().hiddenWeight().set(twice.params().hiddenWeight().get());
      once.params().hiddenBias().set(twice.params().hiddenBias().get());
      once.params().logitsWeight().set(twice.params().logitsWeight().get());
      once.params().logitsBias().set(twice.params().logitsBias().get());
      for (FashionMlpModel m : new FashionMlpModel[] {twice, once}) {
        m.setTraining(true);
        m.forward(x);
        m.backward(head);
      }
      assertArrayEquals(
          once.params().hiddenWeight().grad(),
          twice.params().hiddenWeight().grad(),
          0f,
          "the classifier's consumed gradient does not add into the next backward");
      twice.update(0.1f);
    }
  }

  // --- messages name what was expected and what was given -----------------------------------

  @Test
  void anEmptyBatchIsNamedAsSuch() {
    try (FashionMlpModel m = FashionMlpModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> m.forward(nd.zeros(new Shape(0, 784))));
      assertEquals(
          "FashionMlpModel input 'pixels': every dimension must be at least 1, got "
              + "shape (0, 784) (an empty batch)",
          e.getMessage());
    }
  }

  @Test
  void anExecutorForAnIncompleteShapeSaysWhatIsMissing() {
    try (FashionMlpModel m = FashionMlpModel.create()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.exec(dev.kiln.runtime.graph.Shape.of(-1, 784)));
      assertEquals(
          "FashionMlpModel input 'pixels': an executor needs a complete shape, with a "
              + "size for every BATCH, STEPS and free dimension, got [BATCH, 784]; for example "
              + "[32, 784]",
          e.getMessage());
    }
  }

  @Test
  void aNullInputIsNamed() {
    try (FashionMlpModel m = FashionMlpModel.create()) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> m.forward((NDArray) null));
      assertEquals("FashionMlpModel.forward: input 'pixels' (1 of 1) is null", e.getMessage());
    }
  }

  @Test
  void inputsThatDisagreeOnTheBatchSizeAreRejectedBeforeBinding() {
    try (BranchesModel m = BranchesModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.forward(nd.zeros(new Shape(2, 4)), nd.zeros(new Shape(3, 4))));
      assertEquals(
          "BranchesModel inputs disagree on BATCH: 'a' has 2 at axis 0, 'b' has 3 at "
              + "axis 0; every BATCH dimension of one call must have the same size",
          e.getMessage());
      assertEquals(0, m.runtime().executorCount(), "nothing was bound");
    }
  }

  @Test
  void featuresThatDoNotFitTheLabelsNameBothCounts() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f)) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.classifier().trainBatch(new float[100], new int[] {0, 1, 2, 3}, sgd));
      assertEquals(
          "FashionMlpModel: 4 examples need 4 × 784 = 3136 feature values (input shape "
              + "[BATCH, 784]), got 100",
          e.getMessage());
    }
  }

  @Test
  void aLabelOutsideTheClassesIsNamed() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f)) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> m.classifier().trainBatch(new float[2 * 784], new int[] {3, 10}, sgd));
      assertEquals(
          "FashionMlpModel: label 10 of example 1 is not a class: the softmax has 10 "
              + "classes, 0 to 9",
          e.getMessage());
    }
  }

  @Test
  void aDatasetWithMoreClassesThanTheModelIsRejectedWithBoth() {
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.1f)) {
      Dataset twelve = new Dataset(new float[2 * 784], new int[] {0, 11}, 784, 12);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> m.classifier().evaluate(twelve));
      assertEquals(
          "FashionMlpModel's softmax has 10 classes (0 to 9), the dataset declares 12; "
              + "give the last layer 12 outputs, or a dataset of at most 10 classes",
          e.getMessage());
    }
  }
}
