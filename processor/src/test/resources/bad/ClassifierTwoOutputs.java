package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

@Model(classifier = true)
public interface ClassifierTwoOutputs {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Dense(units = 128)
  Sym hidden(Sym pixels);

  @Dense(units = 32)
  Sym probe(Sym hidden);

  @Dense(units = 10)
  Sym logits(Sym hidden);

  @Softmax
  Sym probs(Sym logits);
}
