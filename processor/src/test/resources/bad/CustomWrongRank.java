package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.Affine;

@Model
public interface CustomWrongRank {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym image();

  @Affine(out = 10)
  Sym scores(Sym image);
}
