package cells;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Gru;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;
import layers.GruCell;

/**
 * A hand-written GRU cell over sequences of any length, unrolled for the length an executor is
 * bound for, read by a fused GRU whose last state is classified.
 */
@Model(classifier = true)
public interface AnyStepsNet {
  @Input(shape = {BATCH, STEPS, 3})
  Sym x();

  @GruCell(hidden = 4)
  Sym states(Sym x);

  @Gru(units = 5, returnSequences = false)
  Sym last(Sym states);

  @Dense(units = 3)
  Sym logits(Sym last);

  @Softmax
  Sym probs(Sym logits);
}
