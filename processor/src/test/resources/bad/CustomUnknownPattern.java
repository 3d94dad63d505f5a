package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.UnknownPattern;

@Model
public interface CustomUnknownPattern {
  @Input(shape = {BATCH, 8})
  Sym x();

  @UnknownPattern
  Sym y(Sym x);
}
