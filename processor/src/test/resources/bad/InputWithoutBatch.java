package bad;

import dev.kiln.annotations.*;

@Model
public interface InputWithoutBatch {
  @Input(shape = {784}) Sym pixels();
  @Dense(units = 10) Sym logits(Sym pixels);
}
