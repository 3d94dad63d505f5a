package bad.recurrent;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest: . */
@Model
public interface GruZeroUnits {
  @Input(shape = {BATCH, STEPS, 8})
  Sym x();

  @Gru(units = 0)
  Sym states(Sym x);
}
