package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ImportShapeHint {
  @Input(shape = {BATCH, 1, 8, 8}) Sym data();
  @Imported(symbol = "hinted-symbol.json") Sym net(Sym data);
}
