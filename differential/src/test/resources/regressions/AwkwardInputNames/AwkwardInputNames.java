package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Concat;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Sym;

/**
 * Found by the differential suite (seed 118): inputs named like the generated {@code
 * XModel.forward}'s own locals. With two outputs, an input named {@code out} made javac reject
 * the generated code ("variable out is already defined in method forward"); an input named {@code
 * runtime} shadowed the model's runtime field. Fixed: the model writer reserves those names.
 */
@Model
public interface AwkwardInputNames {
  @Input(shape = {BATCH, 3})
  Sym out();

  @Input(shape = {BATCH, 2})
  Sym runtime();

  @Input(shape = {BATCH, 4})
  Sym grads();

  @Concat
  Sym both(Sym out, Sym runtime, Sym grads);

  @Output
  @Dense(units = 4, activation = Act.TANH)
  Sym hidden(Sym both);

  @Dense(units = 2)
  Sym score(Sym hidden);
}
