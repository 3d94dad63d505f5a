package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/**
 * Drawn by the differential suite's generator from seed 21 once it drew the pooling part of issue
 * 21 (here a frozen @PRelu). differential: seed=21 init=normal
 *
 * <p>Its check 4 failed: "3 updates with non-zero gradients changed no trainable parameter". A
 * layer norm over an axis of size 1 outputs its beta, and the softmax after it spreads gradients
 * that sum to zero over that beta: ln7_beta's gradient is float rounding (about 1e-8), the only one
 * not exactly 0, and a step of 0.01 times it is below the float resolution of the value check 6
 * left in that beta (about 0.05), so no update changes it. Check 4 now counts gradients above 1e-6
 * only.
 */
@Model
public interface Seed21RoundingResidue {

  @Conv2D(filters = 14, kernel = 2, stride = 3, activation = Act.SOFTSIGN, noBias = true)
  Sym conv2(Sym in1);

  @BatchNorm(eps = 0.01)
  Sym bn5(Sym avgpool4);

  @Conv2D(filters = 30, kernel = 5, stride = 2, pad = 2, activation = Act.SOFTRELU)
  Sym conv6(Sym bn5);

  @AvgPool(kernel = {2, 2})
  Sym avgpool4(Sym prelu3);

  @Input(shape = {BATCH, 3, 7, 7})
  Sym in1();

  @Frozen
  @PRelu
  Sym prelu3(Sym conv2);

  @LayerNorm(axis = 3)
  Sym ln7(Sym conv6);

  @Softmax(axis = -3)
  Sym softmax8(Sym ln7);
}
