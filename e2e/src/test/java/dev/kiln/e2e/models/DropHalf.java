package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dropout;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: dropout at rate 0.5 straight on the input. */
@Model
public interface DropHalf {
  @Input(shape = {BATCH, 1000})
  Sym x();

  @Dropout(rate = 0.5)
  Sym dropped(Sym x);
}
