package good.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.From;
import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * A file whose names are not Java identifiers (input.1, dense-0.weight): the parameter input_1
 * feeds input.1, and reads the model's input pixels.
 */
@Model
public interface Renamed {
  @Input(shape = {BATCH, 3})
  Sym pixels();

  @Imported(symbol = "renamed-symbol.json")
  Sym features(@From("pixels") Sym input_1);
}
