package custom;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;
import layers.Affine;

@Model(classifier = true)
public interface AffineNet {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Affine(out = 10)
  Sym scores(Sym pixels);

  @Softmax
  Sym probs(Sym scores);
}
