package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Broadcasting that alternates between the inputs along six axes. */
@Model
public interface MultiplyTooManyRuns {
  @Input(shape = {BATCH, 1, 3, 1, 3, 1})
  Sym a();

  @Input(shape = {1, 3, 1, 3, 1, 3})
  Sym b();

  @Multiply
  Sym product(Sym a, Sym b);
}
