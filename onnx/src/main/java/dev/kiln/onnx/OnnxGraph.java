package dev.kiln.onnx;

import dev.kiln.ops.Op;
import dev.kiln.ops.rule.TShape;
import java.util.List;
import java.util.Map;

/**
 * An ONNX model as Kiln's operator units: what {@link OnnxImport} makes of a file, the same at
 * compile time (the processor expands it into the model's nodes) and at run time ({@code
 * loadImported} reads the values of its parameters).
 *
 * @param file the file's name, for messages
 * @param opset the version of ONNX's operator set the file uses
 * @param inputs the file's data inputs (not its initializers), in the file's order
 * @param nodes the Kiln nodes, each after the nodes it reads
 * @param outputs the file's outputs, each the name of the Kiln node that computes it, in order
 * @param params every tensor the nodes read as a parameter or auxiliary state, by Kiln's name for
 *     it
 * @param producers the Kiln node that computes each tensor of the file a node computes, by the
 *     tensor's ONNX name (where a graph may be cut)
 */
public record OnnxGraph(
    String file,
    int opset,
    List<Input> inputs,
    List<Node> nodes,
    List<Output> outputs,
    Map<String, Param> params,
    Map<String, String> producers) {
  /** Copies the lists and the maps. */
  public OnnxGraph {
    inputs = List.copyOf(inputs);
    nodes = List.copyOf(nodes);
    outputs = List.copyOf(outputs);
    params = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(params));
    producers = Map.copyOf(producers);
  }

  /**
   * A data input of the file.
   *
   * @param name its name in the file
   * @param shape its shape, a symbolic or missing first dimension as {@code BATCH}
   * @param integer whether it holds integers (token ids) rather than floats
   */
  public record Input(String name, TShape shape, boolean integer) {}

  /**
   * An output of the file.
   *
   * @param name its name in the file
   * @param node the Kiln node that computes it
   */
  public record Output(String name, String node) {}

  /**
   * One Kiln node.
   *
   * @param name its name, unique in the graph (the ONNX node's name, or its output's)
   * @param onnxNode the name of the ONNX node it comes from (possibly empty, as exporters write)
   * @param onnxOp that node's operator, e.g. {@code Conv}
   * @param op the Kiln unit with its attributes
   * @param inputs the names of the nodes or file inputs it reads, in the unit's order
   * @param params the tensors it reads as parameters or auxiliary states, by role ({@code weight})
   * @param constant whether it is a constant the file computes, which training must not change
   * @param shape its output shape, as the unit's rule inferred it
   * @param text the ONNX node as a reader would write it, e.g. {@code Conv(kernel_shape=[5, 5])}
   */
  public record Node(
      String name,
      String onnxNode,
      String onnxOp,
      Op op,
      List<String> inputs,
      Map<String, String> params,
      boolean constant,
      TShape shape,
      String text) {
    /** Copies the lists. */
    public Node {
      inputs = List.copyOf(inputs);
      params = Map.copyOf(params);
    }
  }

  /**
   * A tensor a node reads as a parameter or auxiliary state.
   *
   * @param name Kiln's name for it: the initializer's, or for a constant the node's
   * @param fileShape its shape in the file
   * @param transposed whether Kiln holds it transposed (a {@code MatMul}'s right side as a dense
   *     layer's weight {@code [out, in]})
   * @param values the values of a constant the file computes (a {@code Constant} node's, or a
   *     folded one's); null for an initializer, read from the file when the model loads it
   * @param recurrent for a recurrent layer's fused vector, the initializers it is made of and how;
   *     else null
   */
  public record Param(
      String name,
      List<Integer> fileShape,
      boolean transposed,
      float[] values,
      OnnxRecurrent recurrent) {
    /** Copies the shape. */
    public Param {
      fileShape = List.copyOf(fileShape);
    }

    /** A parameter read from one initializer or constant. */
    public Param(String name, List<Integer> fileShape, boolean transposed, float[] values) {
      this(name, fileShape, transposed, values, null);
    }
  }
}
