package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface DenseTwoInputs {
  @Input(shape = {BATCH, 784}) Sym pixels();
  @Input(shape = {BATCH, 784}) Sym mask();
  @Dense(units = 128) Sym hidden(Sym pixels, Sym mask);
}
