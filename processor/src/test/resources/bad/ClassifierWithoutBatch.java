package bad;

import dev.kiln.annotations.*;

@Model(classifier = true)
public interface ClassifierWithoutBatch {
  @Input(shape = {784}) Sym pixels();
  @Dense(units = 128, activation = Act.RELU) Sym hidden(Sym pixels);
  @Dense(units = 10) Sym logits(Sym hidden);
  @Softmax Sym probs(Sym logits);
}
