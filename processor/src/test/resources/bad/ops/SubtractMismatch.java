package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Two sequences whose lengths differ. */
@Model
public interface SubtractMismatch {
  @Input(shape = {BATCH, 6, 4})
  Sym a();

  @Input(shape = {BATCH, 5, 4})
  Sym b();

  @Subtract
  Sym diff(Sym a, Sym b);
}
