package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: the newer activations inside layers and as layers of their own, for gradients. */
@Model
public interface NewerActs {
  @Input(shape = {BATCH, 1, 5, 5})
  Sym x();

  @Conv2D(filters = 2, kernel = 3, activation = Act.SILU)
  Sym conv(Sym x);

  @Dense(units = 5, activation = Act.GELU)
  Sym a(Sym conv);

  @Activation(Act.MISH)
  Sym b(Sym a);

  @Dense(units = 4, activation = Act.SELU)
  Sym c(Sym b);

  @Activation(Act.ELU)
  Sym d(Sym c);

  @Dense(units = 3, activation = Act.LEAKY_RELU)
  Sym e(Sym d);
}
