package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/**
 * Drawn by the differential suite's generator from seed 10 when it first drew @MatMul, reduced to
 * what failed. differential: seed=10 init=uniform
 *
 * <p>Every check threw MXNet's "Check failed: !IsMKLDNNData(): We can't generate TBlob for MKLDNN
 * data": MXNet 1.9.1's batch_dot cannot read an array oneDNN keeps in a blocked layout, here a
 * convolution's output of 40 filters, nor take such an array as its head gradient, here the input
 * gradient of the convolution after it. Fixed: a stack product reads its inputs and writes its
 * output through clip to [-inf, inf], whose kernel writes the default layout both ways.
 */
@Model
public interface BatchDotOneDnnLayout {

  @Input(shape = {BATCH, 7, 6, 6})
  Sym load();

  @Conv2D(filters = 40, kernel = 1, activation = Act.LEAKY_RELU)
  Sym conv4(Sym load);

  @MatMul(transposeB = true)
  Sym matmul5(Sym conv4, @From("conv4") Sym arg0);

  @Conv2D(filters = 16, kernel = 1)
  Sym conv6(Sym matmul5);

  @Flatten
  Sym flat(Sym conv6);

  @Dense(units = 5)
  Sym logits(Sym flat);
}
