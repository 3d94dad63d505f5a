package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** {@link SymbolFiles#tokens()}, imported whole. */
@Model
public interface TokensNet {
  @Input(shape = {BATCH, 7})
  Sym data();

  @Imported(symbol = "tokens-symbol.json")
  Sym net(Sym data);
}
