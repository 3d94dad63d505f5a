package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** {@link SymbolFiles#tiedLstm()}, imported whole: its steps share one set of weights. */
@Model
public interface TiedLstmNet {
  @Input(shape = {BATCH, 3, 4})
  Sym data();

  @Imported(symbol = "tied-lstm-symbol.json")
  Sym out(Sym data);
}
