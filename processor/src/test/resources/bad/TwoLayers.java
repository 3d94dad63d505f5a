package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface TwoLayers {
  @Input(shape = {BATCH, 784}) Sym pixels();

  @Dense(units = 10)
  @Softmax
  Sym probs(Sym pixels);
}
