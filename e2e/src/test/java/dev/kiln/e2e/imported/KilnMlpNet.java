package dev.kiln.e2e.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Kiln's own export of the sample app's {@code FashionMlp}, imported back. */
@Model(classifier = true)
public interface KilnMlpNet {
  @Input(shape = {BATCH, 784})
  Sym pixels();

  @Imported(symbol = "kiln-mlp-symbol.json")
  Sym mlp(Sym pixels);
}
