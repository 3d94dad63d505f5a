package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.FreeDim;
import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * {@link SymbolFiles#fcn()}, imported for any image size as {@code kiln import --symbol
 * fcn-symbol.json --input data=BATCH,3,H,W --name FcnNet} writes it (from {@code @Model} on, what
 * {@code FreeDimImportTest} checks).
 */
@Model
public interface FcnNet {
  @FreeDim int H = -10;
  @FreeDim int W = -11;

  @Input(shape = {BATCH, 3, H, W})
  Sym data();

  @Imported(symbol = "fcn-symbol.json")
  Sym score(Sym data);
}
