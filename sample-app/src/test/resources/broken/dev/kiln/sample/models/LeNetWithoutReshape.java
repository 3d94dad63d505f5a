package dev.kiln.sample.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/** A deliberate mistake: a convolution over the rows of 784 pixels, never reshaped to images. */
@Model
public interface LeNetWithoutReshape {
  @Input(shape = {BATCH, 784})             Sym pixels();
  @Conv2D(filters = 20, kernel = 5)        Sym conv(Sym pixels);
  @Dense(units = 10)                       Sym logits(Sym conv);
  @Softmax                                 Sym probs(Sym logits);
}
