package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Activation;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Sym;

/** Test model: a flatten, an extra {@code @Output} node and two outputs. */
@Model
public interface TwoHeads {
  @Input(shape = {BATCH, 3, 2})
  Sym x();

  @Flatten
  Sym flat(Sym x);

  @Output
  @Dense(units = 5)
  Sym features(Sym flat);

  @Output
  @Activation(Act.SIGMOID)
  Sym gate(Sym features);

  @Dense(units = 2)
  Sym score(Sym features);
}
