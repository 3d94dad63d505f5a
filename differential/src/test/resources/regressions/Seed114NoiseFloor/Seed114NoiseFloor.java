package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/**
 * Drawn by the differential suite's generator from seed 114 (kept as drawn).
 * differential: seed=114 init=xavier
 *
 * <p>Its check 6 failed on dense4_weight (differences -0.0136, -0.0180, -0.0213 for steps
 * 1e-2, 3e-3, 1e-3; backward -0.0149): the rounding floor let differences that do not converge
 * count as agreeing. The agreement test now uses a quarter of that floor.
 */
@Model
public interface Seed114NoiseFloor {

  @Conv2D(filters = 6, kernel = {2, 3}, stride = {2, 2}, pad = 2, activation = Act.SOFTRELU)
  Sym conv12(Sym in1);

  @Input(shape = {BATCH, 3, 5, 5})
  Sym in1();

  @Output
  @Reshape(shape = {BATCH, 13, 1})
  Sym reshape11(@From("bn10") Sym arg0);

  @Dense(units = 9, activation = Act.SIGMOID, flatten = true)
  Sym dense4(Sym dense3);

  @Dense(units = 13, activation = Act.SOFTSIGN)
  Sym dense7(Sym dense6);

  @Dropout(rate = 0.1)
  Sym drop8(Sym dense7);

  @Frozen
  @Dense(units = 30, activation = Act.SOFTRELU)
  Sym dense3(Sym in2);

  @Dense(units = 6, activation = Act.SOFTSIGN, noBias = true)
  Sym dense5(Sym dense4);

  @Input(shape = {BATCH, 3, 10})
  Sym in2();

  @Activation(Act.SIGMOID)
  Sym act9(Sym drop8);

  @BatchNorm(eps = 2e-5)
  Sym bn10(@From("act9") Sym arg0);

  @Dense(units = 18, activation = Act.TANH)
  Sym dense6(@From("dense5") Sym arg0);

  @Softmax
  Sym softmax13(Sym conv12);
}
