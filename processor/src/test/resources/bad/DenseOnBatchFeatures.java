package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface DenseOnBatchFeatures {
  @Input(shape = {BATCH, BATCH}) Sym tokens();

  @Dense(units = 10)
  Sym logits(Sym tokens);
}
