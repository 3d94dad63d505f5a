package bad.onnx;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/** Test input for DiagnosticsTest: the file's input is fed by a layer, not an @Input of sizes. */
@Model
public interface OnnxSymbolic {
  @Input(shape = {BATCH, 4})
  Sym pixels();

  @Dense(units = 6)
  Sym hidden(Sym pixels);

  @Imported(onnx = "symbolic.onnx")
  Sym net(@From("hidden") Sym x);
}
