package dev.kiln.runtime.graph;

import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.mxnet.MxException;
import dev.kiln.runtime.mxnet.ShapeInference;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks that every {@code Reshape} of a graph keeps the number of values for concrete input
 * shapes. MXNet 1.9.1's {@code Reshape} shape function has its size check compiled out, and an
 * executor bound with a mismatched reshape writes past its output buffer; so Kiln infers the shape
 * of every internal output ({@code MXSymbolGetInternals}) and compares before binding.
 */
final class ReshapeGuard {
  /**
   * One reshape node.
   *
   * @param source where the node was declared
   * @param input the internal output name of the reshaped tensor
   * @param output the internal output name of the reshape
   */
  record Check(NodeSource source, String input, String output) {}

  private ReshapeGuard() {}

  static void check(Graph graph, List<Check> checks, List<Shape> inputShapes) {
    try (SymbolHandle internals = graph.symbol().internals()) {
      Map<String, int[]> shapes = outputShapes(graph, internals, inputShapes);
      for (Check c : checks) {
        int[] in = shapes.get(c.input());
        int[] out = shapes.get(c.output());
        if (in == null || out == null) {
          throw new IllegalStateException(
              c.source()
                  + ": MXNet inferred no shape for the "
                  + "reshape's "
                  + (in == null ? "input " + c.input() : "output " + c.output())
                  + " for input shapes "
                  + inputShapes
                  + ", so Kiln cannot check that it keeps the "
                  + "number of values");
        }
        if (size(in) != size(out)) {
          throw new ModelException(
              c.source(),
              c.source()
                  + ": cannot reshape "
                  + java.util.Arrays.toString(in)
                  + " ("
                  + size(in)
                  + " values) to "
                  + java.util.Arrays.toString(out)
                  + " ("
                  + size(out)
                  + " values) for input shapes "
                  + inputShapes
                  + "; a reshape must keep the number of values",
              null);
        }
      }
    }
  }

  private static Map<String, int[]> outputShapes(
      Graph graph, SymbolHandle internals, List<Shape> inputShapes) {
    List<InputSpec> inputs = graph.inputs();
    Map<String, int[]> known = new LinkedHashMap<>();
    for (int i = 0; i < inputs.size(); i++) {
      known.put(inputs.get(i).name(), inputShapes.get(i).dims());
    }
    // MXNet cannot infer every parameter from the inputs (a custom layer's broadcast or dot
    // operands); without their shapes the outputs after them, and so the reshapes, stay unknown.
    for (ParamSpec p : graph.params()) {
      known.put(p.name(), p.shape().dims());
    }
    for (AuxSpec a : graph.auxStates()) {
      known.put(a.name(), a.shape().dims());
    }
    ShapeInference inferred;
    try {
      inferred = internals.inferShapes(known);
    } catch (MxException e) {
      throw graph.sources().trace("inferring shapes for input shapes " + inputShapes, e);
    }
    List<String> outputNames = internals.outputs();
    Map<String, int[]> shapes = new HashMap<>();
    for (int i = 0; i < inferred.outputs().length && i < outputNames.size(); i++) {
      shapes.put(outputNames.get(i), inferred.outputs()[i]);
    }
    return shapes;
  }

  private static long size(int[] dims) {
    long n = 1;
    for (int d : dims) {
      n *= d;
    }
    return n;
  }
}
