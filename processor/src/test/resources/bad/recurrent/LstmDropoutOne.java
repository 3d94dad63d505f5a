package bad.recurrent;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest: . */
@Model
public interface LstmDropoutOne {
  @Input(shape = {BATCH, 10, 8})
  Sym x();

  @Lstm(units = 16, layers = 2, dropout = 1.0)
  Sym states(Sym x);
}
