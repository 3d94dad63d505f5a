package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ActivationNone {
  @Input(shape = {BATCH, 784}) Sym pixels();
  @Dense(units = 128) Sym hidden(Sym pixels);

  @Activation(Act.NONE)
  Sym act(Sym hidden);
}
