package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ImportMissing {
  @Input(shape = {BATCH, 1, 28, 28}) Sym data();
  @Imported(symbol = "lenet-symbl.json") Sym lenet(Sym data);
}
