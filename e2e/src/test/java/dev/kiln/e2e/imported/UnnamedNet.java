package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** {@link SymbolFiles#unnamed()}, imported whole: an operator of no name, two of one name. */
@Model
public interface UnnamedNet {
  @Input(shape = {BATCH, 4})
  Sym data();

  @Imported(symbol = "unnamed-symbol.json")
  Sym out(Sym data);
}
