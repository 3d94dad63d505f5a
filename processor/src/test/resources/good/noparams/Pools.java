package good.noparams;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** A model without parameters. */
@Model
public interface Pools {
  @Input(shape = {BATCH, 1, 4, 4})
  Sym image();

  @MaxPool(kernel = 2)
  Sym pooled(Sym image);

  @Flatten
  Sym flat(Sym pooled);
}
