package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ImportUnknownInput {
  @Input(shape = {BATCH, 1, 28, 28}) Sym dta();
  @Imported(symbol = "/good/imported/lenet-symbol.json") Sym lenet(Sym dta);
}
