package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface UnusedInput {
  @Input(shape = {BATCH, 784}) Sym pixels();
  @Input(shape = {BATCH, 1}) Sym weights();
  @Dense(units = 10) Sym logits(Sym pixels);
}
