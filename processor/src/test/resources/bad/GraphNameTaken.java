package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface GraphNameTaken {
  @Input(shape = {BATCH, 784}) Sym pixels();
  @Dense(units = 10) Sym logits(Sym pixels);
}

/** The user's own class, which happens to have the name Kiln generates. */
final class GraphNameTakenGraph {}
