package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface InputsOnly {
  @Input(shape = {BATCH, 784}) Sym pixels();
}
