package bad;

import dev.kiln.annotations.*;

@Model
public interface InputWithoutShape {
  @Input
  Sym pixels();

  @Dense(units = 10) Sym logits(Sym pixels);
}
