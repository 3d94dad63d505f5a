package bad;

import dev.kiln.annotations.*;

@Model
public interface InputEmptyShape {
  @Input(shape = {})
  Sym pixels();

  @Dense(units = 10) Sym logits(Sym pixels);
}
