package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Frozen;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * A frozen convolution: its weight is an array of its own, which oneDNN rewrites into its blocked
 * layout in the first inference pass; writing it afterwards ({@code params().convWeight().set},
 * loading a checkpoint) failed with "We can't generate TBlob for MKLDNN data" until {@code
 * Tensor.copyFrom} reordered it back first.
 */
@Model
public interface FrozenConvWrite {
  @Input(shape = {BATCH, 3, 12, 12})
  Sym image();

  @Frozen
  @Conv2D(filters = 32, kernel = 3, activation = Act.TANH)
  Sym conv(Sym image);

  @Dense(units = 6)
  Sym logits(Sym conv);

  @Softmax
  Sym probs(Sym logits);
}
