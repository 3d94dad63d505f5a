package bad.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

@Model
public interface ImportNotJson {
  @Input(shape = {BATCH, 1, 28, 28}) Sym data();
  @Imported(symbol = "lenet-params.json") Sym lenet(Sym data);
}
