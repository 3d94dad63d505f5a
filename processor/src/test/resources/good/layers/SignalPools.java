package good.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.AvgPool;
import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.GlobalMaxPool;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.PoolConvention;
import dev.kiln.annotations.Sym;

/** Pooling over a signal [N, C, W]; compiled by GeneratedCodeTest. */
@Model
public interface SignalPools {
  @Input(shape = {BATCH, 4, 20})
  Sym signal();

  @MaxPool(kernel = 3, stride = 2, pad = 1)
  Sym max(Sym signal);

  @AvgPool(kernel = 2)
  Sym avg(Sym max);

  @Output
  @GlobalAvgPool
  Sym mean(Sym avg);

  @Output
  @GlobalMaxPool
  Sym peak(Sym max);

  @AvgPool(kernel = 3, stride = 2, convention = PoolConvention.FULL)
  Sym coarse(Sym signal);
}
