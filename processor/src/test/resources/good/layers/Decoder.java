package good.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;
import dev.kiln.annotations.Upsample;

/** A decoder that upsamples twice, nearest then bilinear; compiled by GeneratedCodeTest. */
@Model
public interface Decoder {
  @Input(shape = {BATCH, 4, 7, 7})
  Sym code();

  @Upsample(scale = 2)
  Sym coarse(Sym code);

  @Conv2D(filters = 4, kernel = 3, pad = 1)
  Sym smooth(Sym coarse);

  @Upsample(scale = 2, mode = Upsample.Mode.BILINEAR)
  Sym fine(Sym smooth);
}
