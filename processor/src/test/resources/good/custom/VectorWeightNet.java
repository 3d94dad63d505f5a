package custom;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.VectorWeight;

/**
 * Compiles: the processor checks a custom layer's contract, not its body, whose mistake (a
 * vector weight where a matrix was meant) surfaces when the graph is built.
 */
@Model
public interface VectorWeightNet {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @VectorWeight(out = 10)
  Sym scores(Sym pixels);
}
