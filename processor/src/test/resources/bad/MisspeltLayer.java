package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.Affine;

@Model
public interface MisspeltLayer {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Afine(out = 3)
  Sym y(Sym x);

  /** Affine, imported for the layer that was meant. */
  Class<Affine> MEANT = Affine.class;
}
