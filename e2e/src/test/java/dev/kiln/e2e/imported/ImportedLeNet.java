package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** MXNet's classic LeNet, imported whole from the symbol file MXNet wrote ({@link SymbolFiles}). */
@Model(classifier = true)
public interface ImportedLeNet {
  @Input(shape = {BATCH, 1, 28, 28})
  Sym data();

  @Imported(symbol = "lenet-symbol.json")
  Sym lenet(Sym data);
}
