package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Frozen;
import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * MXNet's LeNet cut before its classifier ({@code tanh3}, its 500 features), frozen, under a new
 * head of four classes.
 */
@Model(classifier = true)
public interface FineTunedLeNet {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym data();

  @Frozen
  @Imported(symbol = "lenet-symbol.json", output = "tanh3")
  Sym features(Sym data);

  @Dense(units = 4)
  Sym logits(Sym features);

  @Softmax
  Sym probs(Sym logits);
}
