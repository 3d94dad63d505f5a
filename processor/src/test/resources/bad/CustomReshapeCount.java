package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.Regroup;

@Model
public interface CustomReshapeCount {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Regroup
  Sym rows(Sym pixels);
}
