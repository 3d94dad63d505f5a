package good.imported;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/** Every ONNX operator of issue 34's second item, imported (OnnxOperatorsCompileTest writes them). */
@Model
public interface OnnxOperators {
  @Input(shape = {BATCH, 4, 4, 4})
  Sym x();

  @Input(shape = {BATCH, 1, 4, 4, 4})
  Sym v();

  @Input(shape = {BATCH, 5, 3})
  Sym s();

  @Imported(onnx = "elementwise.onnx")
  Sym elementwise(Sym x);

  @Imported(onnx = "volumes.onnx")
  Sym volumes(Sym v);

  @Imported(onnx = "sequence.onnx")
  Sym sequence(Sym s);
}
