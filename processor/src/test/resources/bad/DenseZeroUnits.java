package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface DenseZeroUnits {
  @Input(shape = {BATCH, 784}) Sym pixels();

  @Dense(
      units = 0,
      activation = Act.RELU)
  Sym hidden(Sym pixels);

  @Dense(units = 10) Sym logits(Sym hidden);
}
