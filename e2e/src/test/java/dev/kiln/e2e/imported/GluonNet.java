package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** {@link SymbolFiles#gluon()}: a graph named as Gluon's export names it, imported whole. */
@Model(classifier = true)
public interface GluonNet {
  @Input(shape = {BATCH, 2, 6, 6})
  Sym data();

  @Imported(symbol = "gluon-symbol.json")
  Sym net(Sym data);
}
