package bad.recurrent;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest: . */
@Model
public interface StatefulBidirectional {
  @Input(shape = {BATCH, STEPS, 4})
  Sym x();

  @Gru(units = 8, bidirectional = true, stateful = true)
  Sym states(Sym x);
}
