package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ImportSharedShape {
  @Input(shape = {BATCH, 8}) Sym data();
  @Imported(symbol = "tied-shapes-symbol.json") Sym net(Sym data);
}
