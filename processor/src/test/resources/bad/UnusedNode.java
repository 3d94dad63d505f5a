package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

@Model
public interface UnusedNode {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Dense(units = 128, activation = Act.RELU)
  Sym hidden(Sym pixels);

  @Dense(units = 64)
  Sym forgotten(Sym hidden);

  @Dense(units = 10)
  Sym logits(Sym hidden);
}
