package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** {@link SymbolFiles#zoo()}, imported whole. */
@Model
public interface ZooNet {
  @Input(shape = {BATCH, 3, 8, 8})
  Sym data();

  @Imported(symbol = "zoo-symbol.json")
  Sym net(Sym data);
}
