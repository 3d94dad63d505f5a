package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * Issue 8 (a): 32 3x3 filters into dense 10. With every trainable parameter a view of one array,
 * oneDNN rewrote the convolution weight in place into its blocked layout on the first inference
 * pass and corrupted the other parameters: repeated forwards of a batch of 8 ones gave zeros, then
 * NaN, then a crash.
 */
@Model
public interface Issue8Conv32 {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  @Conv2D(filters = 32, kernel = 3)
  Sym conv(Sym image);

  @Dense(units = 10)
  Sym logits(Sym conv);

  @Softmax
  Sym probs(Sym logits);
}
