package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.Gone;

@Model
public interface GoneNet {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Gone Sym y(Sym x);
}
