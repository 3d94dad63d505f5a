package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.AvgPool;
import dev.kiln.annotations.GlobalMaxPool;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Lrn;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.PRelu;
import dev.kiln.annotations.PoolConvention;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Sym;

/**
 * Test model: a parametric ReLU and 1-D pools over a signal (one under the full convention), then
 * local response normalisation and a global max pool over it read as an image, for gradients,
 * the summary and the checkpoint.
 */
@Model
public interface SignalPools {
  @Input(shape = {BATCH, 4, 12})
  Sym signal();

  @PRelu                                                                Sym act(Sym signal);

  /** {@code (12 + 2 - 3) / 2 + 1 = 6}. */
  @MaxPool(kernel = 3, stride = 2, pad = 1)                             Sym max(Sym act);

  /** {@code 1 + ceil((6 - 3) / 2) = 3} (2 under the valid convention). */
  @AvgPool(kernel = 3, stride = 2, convention = PoolConvention.FULL)    Sym avg(Sym max);

  @Reshape(shape = {BATCH, 4, 3, 1})                                    Sym image(Sym avg);

  @Lrn(size = 3, alpha = 0.5, k = 1)                                    Sym norm(Sym image);

  /** {@code [N, 4, 1, 1]}. */
  @GlobalMaxPool                                                        Sym peak(Sym norm);
}
