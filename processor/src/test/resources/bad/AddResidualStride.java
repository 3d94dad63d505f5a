package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Add;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

@Model
public interface AddResidualStride {
  @Input(shape = {BATCH, 8, 28, 28})
  Sym x();

  @Conv2D(filters = 16, kernel = 3, stride = 2, pad = 1)
  Sym conv(Sym x);

  @Add
  Sym sum(Sym conv, Sym x);
}
