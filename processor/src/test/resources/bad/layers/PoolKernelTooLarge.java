package bad.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for LayerDiagnosticsTest. */
@Model
public interface PoolKernelTooLarge {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym x();

  @Conv2D(filters = 4, kernel = 5)
  Sym conv1(Sym x);

  @MaxPool(kernel = 2)
  Sym pool1(Sym conv1);

  @Conv2D(filters = 8, kernel = 5)
  Sym conv2(Sym pool1);

  @MaxPool(kernel = 2)
  Sym pool2(Sym conv2);

  @MaxPool(kernel = 5)
  Sym pool3(Sym pool2);
}
