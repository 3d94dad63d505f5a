package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ConcatMismatch {
  @Input(shape = {BATCH, 4, 8}) Sym left();
  @Input(shape = {BATCH, 4, 9}) Sym right();

  @Concat(axis = 1)
  Sym joined(Sym left, Sym right);
}
