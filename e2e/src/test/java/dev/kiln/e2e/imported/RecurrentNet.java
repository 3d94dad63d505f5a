package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * {@link SymbolFiles#recurrent()}, imported whole: SwapAxis, an LSTM and a GRU, as MXNet writes
 * them.
 */
@Model
public interface RecurrentNet {
  @Input(shape = {BATCH, 5, 4})
  Sym data();

  @Imported(symbol = "recurrent-symbol.json")
  Sym net(Sym data);
}
