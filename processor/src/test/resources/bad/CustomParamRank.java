package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.FlatScale;

@Model
public interface CustomParamRank {
  @Input(shape = {BATCH, 16, 24, 24})
  Sym x();

  @FlatScale
  Sym y(Sym x);
}
