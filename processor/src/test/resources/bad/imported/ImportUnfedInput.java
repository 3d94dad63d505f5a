package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ImportUnfedInput {
  @Input(shape = {BATCH, 1, 28, 28}) Sym data();
  @Imported(symbol = "/good/imported/lenet-symbol.json") Sym lenet();
}
