package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** {@link SymbolFiles#tensors()}, imported whole. */
@Model
public interface TensorsNet {
  @Input(shape = {BATCH, 4, 6})
  Sym data();

  @Imported(symbol = "tensors-symbol.json")
  Sym net(Sym data);
}
