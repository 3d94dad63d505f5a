package bad.recurrent;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest: . */
@Model
public interface TimeMajor {
  @Input(shape = {STEPS, BATCH, 28})
  Sym rows();

  @Lstm(units = 32)
  Sym encoded(Sym rows);
}
