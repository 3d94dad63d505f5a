package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface OverloadedNode {
  @Input(shape = {BATCH, 784}) Sym pixels();
  @Input(shape = {BATCH, 784}) Sym mask();
  @Dense(units = 10) Sym hidden(Sym pixels);
  @Add Sym hidden(Sym pixels, Sym mask);
}
