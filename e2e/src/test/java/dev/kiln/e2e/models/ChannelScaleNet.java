package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: a per-channel scale over 4 channels of 3x4 images (channels == width). */
@Model
public interface ChannelScaleNet {
  @Input(shape = {BATCH, 4, 3, 4})
  Sym x();

  @ChannelScale
  Sym y(Sym x);
}
