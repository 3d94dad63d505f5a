package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Sym;

/**
 * Found by the differential suite (seeds 126 and 137, reduced by hand): a reshape after a custom
 * layer whose parameters MXNet cannot infer from the input (a broadcast add). The runtime's
 * reshape guard inferred shapes from the inputs alone, saw the custom layer's output as unknown
 * and refused to bind: "cannot reshape [] (1 values) to [2, -1] (-2 values)". Fixed: the guard
 * gives MXNet every parameter's shape too.
 */
@Model
public interface ReshapeAfterCustomLayer {
  @Input(shape = {BATCH, 6})
  Sym x();

  @Shift
  Sym shifted(Sym x);

  @Reshape(shape = {BATCH, -2})
  Sym same(Sym shifted);

  @Reshape(shape = {0, 2, 3})
  Sym grid(Sym shifted);

  @Dense(units = 2)
  Sym score(Sym grid);
}
