package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.Unbound;

@Model
public interface CustomUnbound {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Unbound(out = 4)
  Sym y(Sym x);
}
