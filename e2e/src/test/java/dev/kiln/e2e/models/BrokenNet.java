package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: compiles (the contract holds) but its layer's body is wrong. */
@Model
public interface BrokenNet {
  @Input(shape = {BATCH, 6})
  Sym x();

  @BrokenLayer(out = 2)
  Sym y(Sym x);
}
