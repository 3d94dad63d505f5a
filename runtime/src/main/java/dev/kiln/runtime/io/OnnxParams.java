package dev.kiln.runtime.io;

import dev.kiln.onnx.OnnxFile;
import dev.kiln.onnx.OnnxFormatException;
import dev.kiln.onnx.OnnxGraph;
import dev.kiln.onnx.OnnxImport;
import dev.kiln.onnx.OnnxRecurrent;
import dev.kiln.onnx.Tensors;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.onnx.proto.Onnx.TensorProto;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.TShape;
import dev.kiln.runtime.exec.Tensor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the parameters of a model imported from an ONNX file ({@code @Imported(onnx = ...)}) from
 * that file: the initializers under their ONNX names, in the layout Kiln holds them (a {@code
 * MatMul}'s right side transposed into a dense layer's {@code [out, in]}), and the values of the
 * constants the file computes. The file is translated again, exactly as the processor did (same
 * input shapes), so that each name means the same tensor. Every array the imported nodes need must
 * come out with as many values as the model holds; nothing changes unless all of them do.
 */
public final class OnnxParams {
  private OnnxParams() {}

  /**
   * Reads {@code file} into {@code params} (learnable parameters by name) and {@code aux}
   * (auxiliary states by name).
   *
   * @param wanted the names of the arrays the imported nodes need
   * @param inputs the shapes of the file's inputs as the model compiled them, by ONNX name
   * @return the names of the file's initializers no imported node reads, in the file's order
   * @throws CheckpointException naming the file and the array at fault
   * @throws IOException if the file cannot be read
   */
  public static List<String> read(
      Path file,
      Map<String, Tensor> params,
      Map<String, Tensor> aux,
      Collection<String> wanted,
      Map<String, TShape> inputs)
      throws IOException {
    ModelProto model;
    OnnxGraph graph;
    try {
      model = OnnxFile.read(file);
      graph = OnnxImport.translate(model, file.getFileName().toString(), "loadImported", inputs);
    } catch (OnnxFormatException e) {
      throw new CheckpointException(file, e.getMessage(), e);
    } catch (RuleError e) {
      throw new CheckpointException(file, e.message.text(e.args), e);
    }
    Path dir = file.toAbsolutePath().getParent();
    Map<String, TensorProto> initializers = new HashMap<>();
    for (TensorProto t : model.getGraph().getInitializerList()) {
      initializers.put(t.getName(), t);
    }
    Map<Tensor, float[]> values = new LinkedHashMap<>();
    for (String name : wanted) {
      OnnxGraph.Param p = graph.params().get(name);
      if (p == null) {
        throw new CheckpointException(
            file,
            name + " is not a tensor of this file's nodes: is it the file the model imports?");
      }
      Tensor target = params.containsKey(name) ? params.get(name) : aux.get(name);
      if (target == null) {
        throw new CheckpointException(file, name + " is no parameter of the model");
      }
      float[] v;
      try {
        if (p.recurrent() != null) {
          OnnxRecurrent r = p.recurrent();
          v =
              r.flatten(
                  Tensors.floats(initializers.get(r.w()), dir),
                  Tensors.floats(initializers.get(r.r()), dir),
                  r.b() == null ? null : Tensors.floats(initializers.get(r.b()), dir));
        } else {
          v = p.values() != null ? p.values() : Tensors.floats(initializers.get(name), dir);
        }
      } catch (IllegalArgumentException e) {
        // An OnnxFormatException names the tensor itself; a recurrent vector's sizes do not.
        throw new CheckpointException(
            file,
            e instanceof OnnxFormatException ? e.getMessage() : name + ": " + e.getMessage(),
            e);
      }
      if (p.transposed()) {
        v = transpose(v, p.fileShape().get(0), p.fileShape().get(1));
      }
      if (v.length != target.size()) {
        throw new CheckpointException(
            file,
            name
                + " holds "
                + v.length
                + " values of shape "
                + p.fileShape()
                + ", but the model's is "
                + target.shape());
      }
      values.put(target, v);
    }
    values.forEach(Tensor::copyFrom);
    Set<String> read = new HashSet<>(wanted);
    for (String name : wanted) {
      OnnxRecurrent r = graph.params().get(name).recurrent();
      if (r != null) {
        read.add(r.w());
        read.add(r.r());
        if (r.b() != null) {
          read.add(r.b());
        }
      }
    }
    List<String> unread = new ArrayList<>();
    for (String name : initializers.keySet()) {
      if (!read.contains(name)) {
        unread.add(name);
      }
    }
    return unread;
  }

  /** A row-major {@code [rows, cols]} matrix transposed. */
  static float[] transpose(float[] v, int rows, int cols) {
    float[] out = new float[v.length];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        out[c * rows + r] = v[r * cols + c];
      }
    }
    return out;
  }
}
