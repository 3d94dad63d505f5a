package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDManager;
import dev.kiln.e2e.models.BranchesModel;
import dev.kiln.e2e.models.DenseTanhModel;
import dev.kiln.e2e.models.TwoHeadsModel;
import dev.kiln.runtime.GradientCheck;
import dev.kiln.runtime.Init;
import org.junit.jupiter.api.Test;

/** Analytic gradients from MXNet's backward against central finite differences. */
class GradientTest {
  @Test
  void denseWithActivation() {
    try (DenseTanhModel m = DenseTanhModel.create(Init.xavier(), 1);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{3, 2, 3}}, 11).run();
      assertEquals(4 * 6 + 4 + 3 * 6, n);
    }
  }

  @Test
  void plainDenseAddConcatAndSoftmaxWithTwoInputs() {
    try (BranchesModel m = BranchesModel.create(Init.xavier(), 2);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{2, 4}, {2, 4}}, 12).run();
      assertEquals((4 * 4 + 4) + (3 * 8 + 3) + 2 * 8, n);
    }
  }

  @Test
  void flattenAndSeveralOutputs() {
    try (TwoHeadsModel m = TwoHeadsModel.create(Init.xavier(), 3);
        NDManager nd = NDManager.newBaseManager()) {
      int n = new GradientCheck(m.runtime(), nd, new long[][] {{2, 3, 2}}, 13).run();
      assertEquals((5 * 6 + 5) + (2 * 5 + 2) + 12, n);
    }
  }
}
