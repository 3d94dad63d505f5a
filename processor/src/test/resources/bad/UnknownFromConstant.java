package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface UnknownFromConstant {
  String HIDDEN = "hidden";

  @Input(shape = {BATCH, 784}) Sym pixels();
  @Dense(units = 128) Sym hidden(Sym pixels);
  @Dense(units = 10) Sym logits(@From(HIDEN) Sym h);
}
