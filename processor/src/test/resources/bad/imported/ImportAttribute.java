package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ImportAttribute {
  @Input(shape = {BATCH, 3, 8, 8}) Sym data();
  @Imported(symbol = "sum-pool-symbol.json") Sym net(Sym data);
}
