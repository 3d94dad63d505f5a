package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model(classifier = true)
public interface ClassifierSoftmaxAxis0 {
  @Input(shape = {BATCH, 784}) Sym pixels();
  @Dense(units = 10) Sym logits(Sym pixels);
  @Softmax(axis = 0) Sym probs(Sym logits);
}
