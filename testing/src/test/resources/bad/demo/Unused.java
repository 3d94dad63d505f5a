package demo;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

@Model
public interface Unused {
  @Input(shape = {BATCH, 8})  Sym x();
  @Dense(units = 4)           Sym forgotten(Sym x);
  @Dense(units = 2)           Sym y(Sym x);
}
