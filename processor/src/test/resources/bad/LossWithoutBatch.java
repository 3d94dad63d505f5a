package bad;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.L1Loss;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

@Model
public interface LossWithoutBatch {
  @Input(shape = {16, 8})
  Sym x();

  @Dense(units = 4)
  Sym y(Sym x);

  @L1Loss
  Sym fit(Sym y);
}
