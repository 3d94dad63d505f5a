package blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;
import layers.Affine;

/** A custom layer and a ReLU. */
@Model
public interface AffineBlock {
  @Input(shape = {BATCH, 8}) Sym x();

  @Affine(out = 8)
  Sym affine(Sym x);

  @Activation(Act.RELU)
  Sym relu(Sym affine);
}
