package custom;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.OpaqueWeight;

/**
 * Compiles: the forward body calls a helper method, which the compiler does not trace, so its
 * mistake (a vector weight where a matrix was meant) surfaces when the graph is built.
 */
@Model
public interface OpaqueWeightNet {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @OpaqueWeight(out = 10)
  Sym scores(Sym pixels);
}
