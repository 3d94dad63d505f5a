package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface NodeReturnsInt {
  @Input(shape = {BATCH, 784}) Sym pixels();

  @Dense(units = 10)
  int logits(Sym pixels);
}
