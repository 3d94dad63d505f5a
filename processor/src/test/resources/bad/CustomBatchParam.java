package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.BatchParam;

@Model
public interface CustomBatchParam {
  @Input(shape = {BATCH, 8})
  Sym x();

  @BatchParam
  Sym y(Sym x);
}
