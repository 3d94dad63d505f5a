package bad.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest. */
@Model
public interface OnnxNode {
  @Input(shape = {BATCH, 1, 6, 6})
  Sym x();

  @Imported(onnx = "pads.onnx")
  Sym net(Sym x);
}
