package bad.dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface FreeDimUnsupported {
  @FreeDim int T = -10;

  @Input(shape = {BATCH, T, 16}) Sym tokens();

  @Reshape(shape = {BATCH, 4, 4})
  Sym grid(Sym tokens);
}
