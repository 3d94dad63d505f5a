package lenet;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Dropout;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/** A LeNet-style classifier: two blocks of convolution, batch norm, ReLU and pooling. */
@Model(classifier = true)
public interface LeNet {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Reshape(shape = {BATCH, 1, 28, 28})
  Sym image(Sym pixels);

  @Conv2D(filters = 6, kernel = 5, pad = 2)
  Sym conv1(Sym image);

  @BatchNorm
  Sym bn1(Sym conv1);

  @Activation(Act.RELU)
  Sym relu1(Sym bn1);

  @MaxPool(kernel = 2)
  Sym pool1(Sym relu1);

  @Conv2D(filters = 16, kernel = 5, activation = Act.RELU)
  Sym conv2(Sym pool1);

  @MaxPool(kernel = 2, stride = 2)
  Sym pool2(Sym conv2);

  @Flatten
  Sym features(Sym pool2);

  @Dense(units = 120, activation = Act.RELU)
  Sym hidden(Sym features);

  @Dropout(rate = 0.25)
  Sym dropped(Sym hidden);

  @Dense(units = 10)
  Sym logits(Sym dropped);

  @Softmax
  Sym probs(Sym logits);
}
