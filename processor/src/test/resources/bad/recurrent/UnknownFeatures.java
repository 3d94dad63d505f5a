package bad.recurrent;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest: . */
@Model
public interface UnknownFeatures {
  @Input(shape = {BATCH, 10, STEPS})
  Sym x();

  @Rnn(units = 8)
  Sym states(Sym x);
}
