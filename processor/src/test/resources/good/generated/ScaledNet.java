package generated;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.Scale;

/** Uses @Scale, which another processor generates in the first round. */
@Model
public interface ScaledNet {
  @Input(shape = {BATCH, 8})
  Sym x();

  @Scale
  Sym scaled(Sym x);
}
