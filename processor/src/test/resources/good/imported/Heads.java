package good.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Sym;

/**
 * A file of three outputs that MXNet saved (e2e's SymbolFiles.heads()), with the _*_scalar family,
 * Crop, Cast and SoftmaxActivation: every output imported, each an @Output.
 */
@Model
public interface Heads {
  @Input(shape = {BATCH, 3, 12, 12})
  Sym data();

  @Output
  @Imported(symbol = "heads-symbol.json", output = "prob1")
  Sym prob1(Sym data);

  @Output
  @Imported(symbol = "heads-symbol.json", output = "conv4_2")
  Sym conv4_2(Sym data);

  @Output
  @Imported(symbol = "heads-symbol.json", output = "misc")
  Sym misc(Sym data);
}
