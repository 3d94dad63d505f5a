package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ConcatBatch {
  @Input(shape = {BATCH, 8}) Sym data();
  @Imported(symbol = "concat-batch-symbol.json") Sym both(Sym data);
}
