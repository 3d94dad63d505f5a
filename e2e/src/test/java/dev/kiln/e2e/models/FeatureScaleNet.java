package dev.kiln.e2e.models;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Test model: a per-feature scale over sequences of 3 steps of 3 features (steps == features). */
@Model
public interface FeatureScaleNet {
  @Input(shape = {BATCH, 3, 3})
  Sym x();

  @FeatureScale
  Sym y(Sym x);
}
