package bad.ops;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** A squeeze-and-excitation gate of [BATCH, 16] applied to [BATCH, 16, 8, 8] without a reshape. */
@Model
public interface MultiplyChannelsByImage {
  @Input(shape = {BATCH, 16, 8, 8})
  Sym features();

  @GlobalAvgPool
  Sym squeezed(Sym features);

  @Flatten
  Sym flat(Sym squeezed);

  @Dense(units = 16, activation = Act.SIGMOID)
  Sym gate(Sym flat);

  @Multiply
  Sym gated(Sym features, Sym gate);
}
