package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/** Regression model (issue 8): 32 3x3 filters into dense 10; MKLDNN reorders the weight. */
@Model
public interface Conv32 {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  @Conv2D(filters = 32, kernel = 3)
  Sym conv(Sym image);

  @Dense(units = 10)
  Sym logits(Sym conv);

  @Softmax
  Sym probs(Sym logits);
}
