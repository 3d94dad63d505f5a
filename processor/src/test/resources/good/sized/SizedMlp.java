package sized;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Its sizes are constants of {@code sized.Sizes}, which another processor generates. */
@Model
public interface SizedMlp {
  @Input(shape = {BATCH, Sizes.PIXELS}) Sym pixels();
  @Dense(units = Sizes.HIDDEN) Sym hidden(Sym pixels);
}
