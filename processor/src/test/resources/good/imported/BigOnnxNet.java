package good.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** A generated ONNX file of 1,000 operator nodes (ImportScaleTest writes it), imported whole. */
@Model
public interface BigOnnxNet {
  @Input(shape = {BATCH, 8, 8, 8})
  Sym data();

  @Imported(onnx = "big.onnx")
  Sym net(Sym data);
}
