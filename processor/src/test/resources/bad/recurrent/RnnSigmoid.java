package bad.recurrent;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest: . */
@Model
public interface RnnSigmoid {
  @Input(shape = {BATCH, STEPS, 4})
  Sym x();

  @Rnn(units = 8, activation = Act.SIGMOID)
  Sym states(Sym x);
}
