package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface InputEmptyShape {
  @Input(shape = {})
  Sym pixels();

  @Dense(units = 10) Sym logits(Sym pixels);
}
