package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Add;
import dev.kiln.annotations.Concat;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.From;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/** Test model: two inputs, a plain dense, a skip connection, a concat and a softmax. */
@Model
public interface Branches {
  @Input(shape = {BATCH, 4})
  Sym a();

  @Input(shape = {BATCH, 4})
  Sym b();

  @Dense(units = 4)
  Sym inner(Sym a);

  @Add
  Sym skip(Sym inner, @From("b") Sym other);

  @Concat(axis = 1)
  Sym joined(Sym skip, Sym a);

  @Dense(units = 3)
  Sym scores(Sym joined);

  @Softmax
  Sym probs(Sym scores);
}
