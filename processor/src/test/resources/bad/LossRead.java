package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.L2Loss;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

@Model
public interface LossRead {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Dense(units = 4)
  Sym y(Sym x);

  @L2Loss
  Sym fit(Sym y);

  @Dense(units = 1)
  Sym after(Sym fit);
}
