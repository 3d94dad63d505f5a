package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.SwappedDot;

@Model
public interface CustomDotInner {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @SwappedDot(out = 10)
  Sym scores(Sym pixels);
}
