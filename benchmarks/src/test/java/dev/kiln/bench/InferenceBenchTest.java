package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.kiln.sample.models.FashionMlpModel;
import org.junit.jupiter.api.Test;

/** The arithmetic-rate table's FLOP counts, read from the layer tables, against hand counts. */
class InferenceBenchTest {
  @Test
  void theProbeDoesOneDotProductOfLength2048PerOutput() {
    double hand = 2.0 * 2048 * 2048;
    assertEquals(hand, InferenceBench.forwardFlops(DenseProbeModel.SUMMARY), hand * 0.01);
  }

  @Test
  void theResidualCnnIsItsConvolutionsAndLittleElse() {
    // Multiply-adds of the 3x3 convolutions: the stem (1 -> 32 at 28x28), four 32 -> 32 at 28x28,
    // the strided 32 -> 64 to 14x14 and two 64 -> 64 at 14x14.
    double convolutions =
        2.0
            * 9
            * (28 * 28 * 32 * 1
                + 4 * 28 * 28 * 32 * 32
                + 14 * 14 * 64 * 32
                + 2 * 14 * 14 * 64 * 64);
    double all = InferenceBench.forwardFlops(ResidualCnnModel.SUMMARY);
    assertEquals(convolutions, all, convolutions * 0.02);
  }

  @Test
  void countsBelowTenThousandHaveNoUnit() {
    assertEquals(
        123, InferenceBench.forwardFlops("node ...\ntotal        10       123     12 B\n"), 0);
  }

  @Test
  void aTableWithoutTotalIsRefused() {
    assertThrows(
        IllegalStateException.class,
        () -> InferenceBench.forwardFlops(FashionMlpModel.class.getName()));
  }
}
