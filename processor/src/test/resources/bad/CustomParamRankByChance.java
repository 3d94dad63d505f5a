package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.FlatScale;

/** Four channels of 3x4 images: the scale [4] meets w, also 4, and would scale columns. */
@Model
public interface CustomParamRankByChance {
  @Input(shape = {BATCH, 4, 3, 4})
  Sym x();

  @FlatScale
  Sym y(Sym x);
}
