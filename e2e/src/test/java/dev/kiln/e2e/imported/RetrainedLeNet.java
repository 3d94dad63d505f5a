package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/** {@link FineTunedLeNet} with the imported layers trained too. */
@Model(classifier = true)
public interface RetrainedLeNet {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym data();

  @Imported(symbol = "lenet-symbol.json", output = "tanh3")
  Sym features(Sym data);

  @Dense(units = 4)
  Sym logits(Sym features);

  @Softmax
  Sym probs(Sym logits);
}
