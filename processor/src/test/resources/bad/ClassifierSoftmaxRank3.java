package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model(classifier = true)
public interface ClassifierSoftmaxRank3 {
  @Input(shape = {BATCH, 20, 10}) Sym scores();
  @Softmax Sym probs(Sym scores);
}
