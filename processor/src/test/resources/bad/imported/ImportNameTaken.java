package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model(classifier = true)
public interface ImportNameTaken {
  @Input(shape = {BATCH, 1, 28, 28}) Sym data();
  @Imported(symbol = "/good/imported/lenet-symbol.json", output = "fc2") Sym features(Sym data);
  @Dense(units = 10) Sym fc1(Sym features);
  @Softmax Sym probs(Sym fc1);
}
