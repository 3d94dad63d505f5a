package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ImportShapeRejected {
  @Input(shape = {BATCH, 1, 12, 12}) Sym data();
  @Imported(symbol = "/good/imported/lenet-symbol.json") Sym lenet(Sym data);
}
