package bad;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import layers.SelfScores;

@Model
public interface CustomBatchDotInner {
  @Input(shape = {BATCH, 5, 8})
  Sym x();

  @SelfScores
  Sym scores(Sym x);
}
