package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: its layer's body breaks the layer's own output contract. */
@Model
public interface BackwardsNet {
  @Input(shape = {BATCH, 6})
  Sym x();

  @BackwardsLayer(out = 2)
  Sym y(Sym x);
}
