package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Frozen;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/** Test model: a classifier whose first layer is frozen. */
@Model(classifier = true)
public interface FrozenBase {
  @Input(shape = {BATCH, 4})
  Sym x();

  @Frozen
  @Dense(units = 3, activation = Act.TANH)
  Sym base(Sym x);

  @Dense(units = 2)
  Sym head(Sym base);

  @Softmax
  Sym probs(Sym head);
}
