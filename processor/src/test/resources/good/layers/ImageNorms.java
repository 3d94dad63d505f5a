package good.layers;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Lrn;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.PRelu;
import dev.kiln.annotations.Sym;

/** Local response normalisation and a parametric ReLU; compiled by GeneratedCodeTest. */
@Model
public interface ImageNorms {
  @Input(shape = {BATCH, 3, 16, 16})
  Sym image();

  @Conv2D(filters = 8, kernel = 3)
  Sym conv(Sym image);

  @Lrn(size = 5)
  Sym alexnet(Sym conv);

  @Lrn(size = 3, alpha = 0.001, beta = 0.5, k = 1)
  Sym tuned(Sym alexnet);

  @PRelu
  Sym act(Sym tuned);
}
