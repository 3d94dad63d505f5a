package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * Issue 8 (b): a LeNet with 16 and 32 filters (convolution, batch norm, ReLU, pooling, twice;
 * dense; dense 10; softmax). With parameters as views of one array, {@code evaluate} after the
 * first epoch of {@code fit} failed with "We can't generate TBlob for MKLDNN data".
 */
@Model(classifier = true)
public interface Issue8LeNet1632 {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  @Conv2D(filters = 16, kernel = 5)
  Sym conv1(Sym image);

  @BatchNorm
  Sym bn1(Sym conv1);

  @Activation(Act.RELU)
  Sym relu1(Sym bn1);

  @MaxPool(kernel = 2)
  Sym pool1(Sym relu1);

  @Conv2D(filters = 32, kernel = 5)
  Sym conv2(Sym pool1);

  @BatchNorm
  Sym bn2(Sym conv2);

  @Activation(Act.RELU)
  Sym relu2(Sym bn2);

  @MaxPool(kernel = 2)
  Sym pool2(Sym relu2);

  @Dense(units = 64, activation = Act.RELU)
  Sym hidden(Sym pool2);

  @Dense(units = 10)
  Sym logits(Sym hidden);

  @Softmax
  Sym probs(Sym logits);
}
