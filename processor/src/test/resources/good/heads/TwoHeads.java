package heads;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Add;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Frozen;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Sym;

/** Two heads on a frozen, pre-trained base: several outputs, and not a classifier. */
@Model
public interface TwoHeads {
  @Input(shape = {BATCH, 3, 4})
  Sym features();

  @Input(shape = {BATCH, 8})
  Sym context();

  @Frozen
  @Dense(units = 8, activation = Act.TANH)
  Sym base(Sym features);

  @Add
  Sym mixed(Sym base, Sym context);

  @LayerNorm(eps = 1e-6)
  Sym normed(Sym mixed);

  @Output
  @Dense(units = 2)
  Sym left(Sym normed);

  @Dense(units = 3, noBias = true)
  Sym right(Sym normed);
}
