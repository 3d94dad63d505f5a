package loss;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A small denoising autoencoder: a golden model for the trainer of a loss head. */
@Model
public interface Denoiser {
  @Input(shape = {BATCH, 1, 8, 8})
  Sym noisy();

  @Conv2D(filters = 4, kernel = 2, stride = 2, activation = Act.RELU)
  Sym down(Sym noisy);

  @Deconv2D(filters = 1, kernel = 2, stride = 2)
  Sym up(Sym down);

  @L2Loss
  Sym clean(Sym up);
}
