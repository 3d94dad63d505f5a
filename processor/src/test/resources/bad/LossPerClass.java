package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Loss;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

@Model
public interface LossPerClass {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Dense(units = 10)
  Sym scores(Sym x);

  @Loss
  Sym loss(Sym scores);
}
