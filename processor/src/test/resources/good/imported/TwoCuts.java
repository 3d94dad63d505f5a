package good.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Two cuts of one file: they share its nodes, and both are outputs. */
@Model
public interface TwoCuts {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym data();

  @Imported(symbol = "lenet-symbol.json", output = "fc2")
  Sym scores(Sym data);

  @Imported(symbol = "lenet-symbol.json", output = "flatten")
  Sym features(Sym data);
}
