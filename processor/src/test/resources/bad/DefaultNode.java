package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface DefaultNode {
  @Input(shape = {BATCH, 784}) Sym pixels();

  @Dense(units = 128)
  default Sym hidden(Sym pixels) {
    return pixels;
  }

  @Dense(units = 10) Sym logits(Sym hidden);
}
