package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Gru;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * Test model: the hand-written GRU cell over series of any length, read by a fused GRU whose last
 * state is classified; the classifier view needs a constant number of steps.
 */
@Model(classifier = true)
public interface AnyStepsClassifier {
  @Input(shape = {BATCH, STEPS, 3})
  Sym series();

  @GruCell(hidden = 4)
  Sym states(Sym series);

  @Gru(units = 6, returnSequences = false)
  Sym last(Sym states);

  @Dense(units = 3)
  Sym logits(Sym last);

  @Softmax
  Sym probs(Sym logits);
}
