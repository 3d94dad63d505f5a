package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface AddOneInput {
  @Input(shape = {BATCH, 784}) Sym pixels();
  @Dense(units = 784) Sym hidden(Sym pixels);
  @Add Sym skip(Sym hidden);
}
