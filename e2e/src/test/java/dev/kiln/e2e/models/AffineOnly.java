package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: one custom affine layer. */
@Model
public interface AffineOnly {
  @Input(shape = {BATCH, 5})
  Sym x();

  @Affine(out = 4)
  Sym y(Sym x);
}
