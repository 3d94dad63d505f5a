package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: one batch norm over the two features of {@code [N, 2]}, momentum 0.5. */
@Model
public interface BatchNormOnly {
  @Input(shape = {BATCH, 2})
  Sym x();

  @BatchNorm(momentum = 0.5, eps = 1e-5)
  Sym bn(Sym x);
}
