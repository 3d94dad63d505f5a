package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Activation;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: custom layers used exactly like built-in ones. */
@Model
public interface CustomNet {
  @Input(shape = {BATCH, 5})
  Sym x();

  @Affine(out = 4)
  Sym hidden(Sym x);

  @Activation(Act.RELU)
  Sym act(Sym hidden);

  @ScaledTanh(units = 3, scale = 0.5f)
  Sym gated(Sym act);
}
