package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.AvgPool;
import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Sym;

/** Test model: the three poolings and two reshapes of one input, each an output. */
@Model
public interface Pools {
  @Input(shape = {BATCH, 2, 5, 5})
  Sym x();

  /** Stride defaults to the kernel: {@code [N, 2, 2, 2]}. */
  @MaxPool(kernel = 2)
  Sym max(Sym x);

  /** {@code (5 + 2 - 3) / 2 + 1 = 3}: {@code [N, 2, 3, 3]}. */
  @AvgPool(kernel = 3, stride = 2, pad = 1)
  Sym avg(Sym x);

  /** {@code [N, 2, 1, 1]}. */
  @GlobalAvgPool
  Sym global(Sym x);

  /** {@code [N, 2, 1, 1]} to {@code [N, 2]}. */
  @Reshape(shape = {Reshape.COPY, BATCH})
  Sym pooled(Sym global);

  /** {@code [N, 2, 5, 5]} to {@code [N, 5, 10]}. */
  @Reshape(shape = {BATCH, 5, 10})
  Sym rows(Sym x);
}
