package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.L2Loss;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Sym;

@Model
public interface LossMarkedOutput {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Output
  @Dense(units = 16)
  Sym hidden(Sym x);

  @Dense(units = 1)
  Sym y(Sym hidden);

  @L2Loss
  Sym price(Sym y);
}
