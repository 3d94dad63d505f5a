package good.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** A file whose three dense steps read one weight and one bias: one parameter each. */
@Model
public interface Tied {
  @Input(shape = {BATCH, 6})
  Sym data();

  @Imported(symbol = "tied-symbol.json")
  Sym net(Sym data);
}
