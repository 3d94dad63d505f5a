package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/**
 * Drawn by the differential suite's generator from seed 657 (kept as drawn).
 * differential: seed=657 init=uniform
 *
 * <p>Its checks 6, 4 and 5 threw "Check failed: !is_view": @BatchNorm(axis = -3) of a
 * convolution's output, as seed 519. Fixed: the processor writes the axis as 1.
 */
@Model
public interface Seed657BatchNormNegativeAxis {

  @Input(shape = {BATCH, 7, 12, 4})
  Sym in1();

  @Output
  @Conv2D(filters = 40, kernel = {7, 1}, stride = 3, activation = Act.SOFTRELU)
  Sym conv2(Sym in1);

  @BatchNorm(axis = -3)
  Sym bn3(Sym conv2);

  @MaxPool(kernel = 2, stride = 1)
  Sym maxpool4(Sym bn3);

  @Conv2D(filters = 16, kernel = 7, stride = {2, 1}, pad = {3, 3}, activation = Act.SOFTRELU)
  Sym conv5(Sym maxpool4);

  @AvgPool(kernel = 1)
  Sym avgpool6(Sym conv5);

  @Output
  @MaxPool(kernel = {1, 1}, stride = {2, 2})
  Sym maxpool7(Sym avgpool6);

  @Flatten
  Sym flat8(@From("bn3") Sym arg0);

  @Dense(units = 5)
  Sym dense9(Sym flat8);
}
