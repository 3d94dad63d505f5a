package bad.dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface FreeDimAttribute {
  @FreeDim int T = -10;
  @FreeDim int D = -11;

  @Input(shape = {BATCH, T, D}) Sym tokens();

  @Dense(units = D, flatten = false)
  Sym hidden(Sym tokens);
}
