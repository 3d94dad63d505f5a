package dev.kiln.runtime.io;

import dev.kiln.onnx.OnnxExport;
import dev.kiln.onnx.OnnxExportException;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.runtime.graph.Dimensions;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a model as an ONNX file: its MXNet symbol translated by {@link OnnxExport} (Kiln's one
 * mapping of MXNet operators to ONNX), its weights as initializers, written atomically (the file is
 * complete or untouched). Whatever ONNX cannot express is refused before anything is written.
 */
public final class OnnxFiles {
  private OnnxFiles() {}

  /**
   * Writes {@code file}: the inference graph of {@code symbolJson} with {@code inputs} (a {@code
   * BATCH} dimension becomes the symbolic {@code batch}), its heads named {@code outputs}, and
   * {@code arrays} (parameters and auxiliary states by MXNet name) as initializers, in {@code
   * opset}.
   *
   * @throws OnnxExportException naming the node and why, when the model cannot be expressed in
   *     ONNX; nothing is written then
   * @throws IOException if the file cannot be written
   */
  public static void write(
      Path file,
      String graphName,
      String symbolJson,
      List<InputSpec> inputs,
      Dimensions dimensions,
      List<String> outputs,
      Map<String, NamedArray> arrays,
      int opset)
      throws IOException {
    List<OnnxExport.Input> in = new ArrayList<>();
    for (InputSpec s : inputs) {
      long[] dims = new long[s.shape().rank()];
      List<String> names = new ArrayList<>();
      for (int i = 0; i < dims.length; i++) {
        int d = s.shape().dim(i);
        String free = dimensions.nameOf(d);
        if (d < 0 && d != Shape.BATCH && free == null) {
          throw new OnnxExportException(
              "input '" + s.name() + "' has a free dimension ONNX cannot name: " + s.shape());
        }
        dims[i] = d;
        names.add(d == Shape.BATCH ? OnnxExport.BATCH : free != null ? free : "");
      }
      in.add(new OnnxExport.Input(s.name(), dims, names));
    }
    Map<String, OnnxExport.Array> params = new LinkedHashMap<>();
    for (NamedArray a : arrays.values()) {
      long[] dims = new long[a.shape().rank()];
      for (int i = 0; i < dims.length; i++) {
        dims[i] = a.shape().dim(i);
      }
      params.put(a.name(), new OnnxExport.Array(dims, a.data()));
    }
    ModelProto model =
        OnnxExport.export(graphName, SymbolFile.parse(symbolJson), in, outputs, params, opset);
    byte[] bytes = model.toByteArray();
    AtomicFiles.write(
        file,
        channel -> {
          ByteBuffer b = ByteBuffer.wrap(bytes);
          while (b.hasRemaining()) {
            channel.write(b);
          }
        });
  }
}
