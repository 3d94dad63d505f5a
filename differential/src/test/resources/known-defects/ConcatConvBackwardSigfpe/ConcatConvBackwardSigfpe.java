package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Concat;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.From;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * Found by the differential suite (seed 1390, reduced by hand): a convolution over the
 * concatenation of an input, a convolution of it and the input again. The first backward pass
 * kills the JVM with SIGFPE (integer division by zero) inside libmxnet's oneDNN code; the
 * training-mode forward pass and inference work, MXNET_MKLDNN_ENABLED=0 works, and it crashes the
 * same way before the fused parameter array (commit 4435fb4). Not with the input only once.
 */
@Model
public interface ConcatConvBackwardSigfpe {
  @Input(shape = {BATCH, 5, 3, 13})
  Sym image();

  @Conv2D(filters = 14, kernel = 5, pad = 2)
  Sym features(Sym image);

  @Concat
  Sym stacked(Sym image, Sym features, @From("image") Sym again);

  @Conv2D(filters = 32, kernel = 2, stride = 3, pad = 1)
  Sym out(Sym stacked);
}
