package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ImportUnknownOp {
  @Input(shape = {BATCH, 3, 8, 8}) Sym data();
  @Imported(symbol = "grid-symbol.json") Sym net(Sym data);
}
