package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface UnknownActivation {
  @Input(shape = {BATCH, 784}) Sym pixels();
  @Dense(units = 128, activation = Act.RELUU) Sym hidden(Sym pixels);
  @Dense(units = 10) Sym logits(Sym hidden);
}
