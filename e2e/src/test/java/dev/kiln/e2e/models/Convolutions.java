package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Conv1D;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Deconv2D;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Sym;

/**
 * Test model: a 1-D convolution over a signal, reshaped into an image for a depthwise convolution
 * and a transposed convolution with padding and an output padding, for gradients.
 */
@Model
public interface Convolutions {
  @Input(shape = {BATCH, 2, 12})
  Sym signal();

  @Conv1D(filters = 4, kernel = 3, stride = 1, pad = 2, dilation = 2, activation = Act.TANH)
  Sym conv1d(Sym signal);

  @Reshape(shape = {BATCH, 4, 3, 4})
  Sym image(Sym conv1d);

  @Conv2D(filters = 4, kernel = 2, groups = 4, noBias = true)
  Sym depthwise(Sym image);

  @Deconv2D(filters = 2, kernel = 3, stride = 2, pad = 1, outputPad = 1, activation = Act.TANH)
  Sym up(Sym depthwise);
}
