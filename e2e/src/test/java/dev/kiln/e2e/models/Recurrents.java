package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Concat;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Lstm;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Rnn;
import dev.kiln.annotations.Sym;

/** Test model: a two-layer bidirectional LSTM beside a ReLU recurrent layer, concatenated. */
@Model
public interface Recurrents {
  @Input(shape = {BATCH, 4, 3})
  Sym x();

  @Lstm(units = 3, layers = 2, bidirectional = true, returnSequences = false)
  Sym both(Sym x);

  @Rnn(units = 2, activation = Act.RELU, returnSequences = false)
  Sym plain(Sym x);

  @Concat(axis = 1)
  Sym joined(Sym both, Sym plain);
}
