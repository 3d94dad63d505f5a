package bad.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest. */
@Model
public interface ImportNeither {
  @Input(shape = {BATCH, 4})
  Sym x();

  @Imported
  Sym net(Sym x);
}
