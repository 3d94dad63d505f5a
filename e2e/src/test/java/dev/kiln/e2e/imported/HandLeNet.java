package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/** MXNet's LeNet ({@link SymbolFiles#lenet()}) written in Kiln, for {@link ImportBench}. */
@Model(classifier = true)
public interface HandLeNet {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym data();

  @Conv2D(filters = 20, kernel = 5, activation = Act.TANH)
  Sym conv1(Sym data);

  @MaxPool(kernel = 2)
  Sym pool1(Sym conv1);

  @Conv2D(filters = 50, kernel = 5, activation = Act.TANH)
  Sym conv2(Sym pool1);

  @MaxPool(kernel = 2)
  Sym pool2(Sym conv2);

  @Flatten
  Sym flatten(Sym pool2);

  @Dense(units = 500, activation = Act.TANH)
  Sym fc1(Sym flatten);

  @Dense(units = 10)
  Sym fc2(Sym fc1);

  @Softmax
  Sym probs(Sym fc2);
}
