package custom;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.VectorWeight;

/**
 * Under javac, a compile error in the layer's body (a vector weight where a matrix was meant); under
 * ecj, which shows no bodies, a model whose graph build finds it.
 */
@Model
public interface VectorWeightNet {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @VectorWeight(out = 10)
  Sym scores(Sym pixels);
}
