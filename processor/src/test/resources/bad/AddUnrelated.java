package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface AddUnrelated {
  @Input(shape = {BATCH, 1, 4, 4}) Sym image();
  @Input(shape = {BATCH, 1, 3, 3}) Sym other();

  @Add
  Sym sum(Sym image, Sym other);
}
