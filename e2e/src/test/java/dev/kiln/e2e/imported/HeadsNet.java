package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Sym;

/**
 * {@link SymbolFiles#heads()}, imported whole as {@code kiln import} writes a file of several
 * outputs: one {@code @Output} import per output of the file.
 */
@Model
public interface HeadsNet {
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
