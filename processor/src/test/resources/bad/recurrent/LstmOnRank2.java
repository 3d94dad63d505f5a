package bad.recurrent;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest: . */
@Model
public interface LstmOnRank2 {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Lstm(units = 32)
  Sym encoded(Sym pixels);
}
