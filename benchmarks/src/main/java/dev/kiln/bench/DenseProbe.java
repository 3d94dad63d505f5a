package dev.kiln.bench;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * The inference benchmark's yardstick for this core's arithmetic: one 2048 x 2048 fully connected
 * layer, which MXNet runs as one oneDNN inner product (a large GEMM, about as close to the core's
 * peak as MXNet's float32 kernels get). {@code bench inference} prints the convolutional models'
 * rates as fractions of its rate.
 */
@Model
public interface DenseProbe {
  /** 2048 values an example. */
  @Input(shape = {BATCH, 2048})
  Sym x();

  /** 2048 outputs, each a dot product of length 2048: 8.4 MFLOPs an example. */
  @Dense(units = 2048, noBias = true)
  Sym product(Sym x);
}
