package dev.kiln.sample.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Lstm;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * A recurrent classifier for Fashion-MNIST that reads each image row by row: 28 steps of 28
 * pixels into an LSTM of 128 units, whose final state a dense layer turns into class scores.
 */
@Model(classifier = true)
public interface FashionLstm {
  /** Pixels scaled to [0, 1]: each image's 28 rows, top to bottom, are the steps. */
  @Input(shape = {BATCH, 28, 28})
  Sym rows();

  /** The state after the last row. */
  @Lstm(units = 128, returnSequences = false)
  Sym encoded(Sym rows);

  /** Unnormalised class scores. */
  @Dense(units = 10)
  Sym logits(Sym encoded);

  /** Class probabilities. */
  @Softmax
  Sym probs(Sym logits);
}
