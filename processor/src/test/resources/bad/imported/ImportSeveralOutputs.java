package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ImportSeveralOutputs {
  @Input(shape = {BATCH, 8}) Sym data();
  @Imported(symbol = "two-heads-symbol.json") Sym net(Sym data);
}
