package demo;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Add;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

@Model
public interface Skip {
  @Input(shape = {BATCH, 784})  Sym pixels();
  @Dense(units = 128)           Sym hidden(Sym pixels);
  @Add                          Sym skip(Sym hidden, Sym pixels);
}
