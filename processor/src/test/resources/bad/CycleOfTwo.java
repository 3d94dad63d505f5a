package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface CycleOfTwo {
  @Input(shape = {BATCH, 16}) Sym x();
  @Add Sym first(Sym x, Sym second);
  @Add Sym second(Sym x, Sym first);
}
