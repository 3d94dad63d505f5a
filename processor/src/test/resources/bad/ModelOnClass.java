package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public abstract class ModelOnClass {
  @Input(shape = {BATCH, 784}) abstract Sym pixels();
  @Dense(units = 10) abstract Sym logits(Sym pixels);
}
