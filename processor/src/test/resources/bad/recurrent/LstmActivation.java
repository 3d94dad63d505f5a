package bad.recurrent;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest: . */
@Model
public interface LstmActivation {
  @Input(shape = {BATCH, STEPS, 4})
  Sym x();

  @Lstm(units = 8, activation = Act.TANH)
  Sym states(Sym x);
}
