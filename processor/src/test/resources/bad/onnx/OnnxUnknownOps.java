package bad.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest. */
@Model
public interface OnnxUnknownOps {
  @Input(shape = {BATCH, 4})
  Sym x();

  @Imported(onnx = "unknown.onnx")
  Sym net(Sym x);
}
