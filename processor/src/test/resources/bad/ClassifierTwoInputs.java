package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Concat;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

@Model(classifier = true)
public interface ClassifierTwoInputs {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Input(shape = {BATCH, 4})
  Sym meta();

  @Concat
  Sym both(Sym pixels, Sym meta);

  @Dense(units = 10)
  Sym logits(Sym both);

  @Softmax
  Sym probs(Sym logits);
}
