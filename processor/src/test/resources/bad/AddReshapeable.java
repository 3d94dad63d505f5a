package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface AddReshapeable {
  @Input(shape = {BATCH, 16}) Sym flat();
  @Input(shape = {BATCH, 2, 8}) Sym grid();

  @Add
  Sym sum(Sym flat, Sym grid);
}
