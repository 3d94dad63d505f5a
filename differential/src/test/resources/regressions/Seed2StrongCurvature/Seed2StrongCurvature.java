package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/**
 * Drawn by the differential suite's generator from seed 2 (kept as drawn).
 * differential: seed=2 init=normal
 *
 * <p>Its check 6 failed on bn2_gamma (numeric -14.11, backward -13.66): not a defect of
 * Kiln or MXNet but of the first gradient check, whose step of 1e-2 was too coarse for the
 * curvature of layer norms over 4 values; the differences converge to backward below 3e-3. The
 * check now takes the first three agreeing differences of steps 1e-2 down to 3e-4.
 */
@Model
public interface Seed2StrongCurvature {

  @Input(shape = {BATCH, 3, 11, 8})
  Sym in1();

  @Output
  @BatchNorm
  Sym bn2(@From("in1") Sym arg0);

  @Conv2D(filters = 54, kernel = 7, stride = {3, 1}, pad = {3, 3}, activation = Act.SIGMOID, noBias = true)
  Sym conv3(Sym bn2);

  @MaxPool(kernel = {2, 1})
  Sym e(Sym conv3);

  @Activation(Act.TANH)
  Sym act4(Sym e);

  @Conv2D(filters = 23, kernel = {3, 5}, pad = {2, 0}, activation = Act.SOFTSIGN)
  Sym conv5(@From("e") Sym arg0);

  @LayerNorm(axis = 3)
  Sym ln6(Sym conv5);

  @AvgPool(kernel = 2)
  Sym avgpool7(Sym act4);

  @LayerNorm(axis = 2)
  Sym ln8(Sym avgpool7);

  @MaxPool(kernel = 3, stride = 1, pad = 1)
  Sym maxpool9(@From("ln8") Sym arg0);

  @Concat(axis = 2)
  Sym concat10(@From("ln8") Sym arg0, Sym maxpool9);
}
