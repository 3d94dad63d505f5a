package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.InstanceNorm;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: an instance norm over images of two channels. */
@Model
public interface InstanceNormed {
  @Input(shape = {BATCH, 2, 3, 4})
  Sym x();

  @InstanceNorm(eps = 1e-3)
  Sym norm(Sym x);
}
