package dev.kiln.e2e.onnx;

import dev.kiln.onnx.OnnxFile;
import dev.kiln.onnx.Tensors;
import dev.kiln.onnx.proto.Onnx.TensorProto;
import java.io.IOException;
import java.nio.file.Path;

/** The values of an ONNX file's initializers, read as the file holds them. */
final class OnnxImportValues {
  private OnnxImportValues() {}

  /** The values of initializer {@code name} of {@code file}. */
  static float[] initializer(Path file, String name) throws IOException {
    for (TensorProto t : OnnxFile.read(file).getGraph().getInitializerList()) {
      if (t.getName().equals(name)) {
        return Tensors.floats(t, file.getParent());
      }
    }
    throw new AssertionError(name + " is not an initializer of " + file);
  }
}
