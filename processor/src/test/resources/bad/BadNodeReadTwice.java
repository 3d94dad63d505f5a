package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface BadNodeReadTwice {
  @Input(shape = {BATCH, 784}) Sym pixels();
  @Dense(units = 128) Sym hidden(Sym pixels);

  @Add
  Sym skip(Sym hidden, Sym pixels);

  @Dense(units = 10) Sym left(Sym skip);
  @Dense(units = 10) Sym right(Sym skip);
  @Concat Sym both(Sym left, Sym right);
}
