package bad.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest: the file folds the shape of a tensor with free sizes. */
@Model
public interface OnnxFreeDim {
  @FreeDim int H = -10;
  @FreeDim int W = -11;

  @Input(shape = {BATCH, 2, H, W})
  Sym x();

  @Imported(onnx = "freedim.onnx")
  Sym net(Sym x);
}
