package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface InputZeroDim {
  @Input(shape = {BATCH, 0})
  Sym pixels();

  @Dense(units = 10) Sym logits(Sym pixels);
}
