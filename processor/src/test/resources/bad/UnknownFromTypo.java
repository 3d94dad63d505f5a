package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface UnknownFromTypo {
  @Input(shape = {BATCH, 784}) Sym pixels();
  @Dense(units = 128) Sym hidden(Sym pixels);

  @Dense(units = 10)
  Sym logits(
      @From("hiden") Sym h);
}
