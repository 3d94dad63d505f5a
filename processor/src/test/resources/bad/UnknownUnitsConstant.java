package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface UnknownUnitsConstant {
  int HIDDEN = 128;

  @Input(shape = {BATCH, 784}) Sym pixels();
  @Dense(units = HIDEN) Sym hidden(Sym pixels);
  @Dense(units = 10) Sym logits(Sym hidden);
}
