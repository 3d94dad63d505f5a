package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface InputNamedFinalize {
  @Input(shape = {BATCH, 4}) Sym finalize();
  @Dense(units = 2) Sym score(Sym finalize);
}
