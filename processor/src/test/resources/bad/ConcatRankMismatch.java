package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ConcatRankMismatch {
  @Input(shape = {BATCH, 4}) Sym left();
  @Input(shape = {BATCH, 4, 2}) Sym right();

  @Concat
  Sym joined(Sym left, Sym right);
}
