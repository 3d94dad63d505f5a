package dev.kiln.serving;

import dev.kiln.ops.file.SymbolFile;
import dev.kiln.runtime.graph.Dimensions;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Predictor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * What the protocol says of a model's tensors: each input's and output's datatype, and for an input
 * of token ids (one that feeds an {@code Embedding}'s data) the number of rows of the smallest
 * table it indexes.
 *
 * <p>MXNet computes in FP32, and its {@code Embedding} takes its indices as FP32 too: an input of
 * token ids is {@code INT64} in the protocol (INT32 and whole FP32 values are taken as well), and
 * its ids are converted to FP32 exactly, which holds every whole number below 2<sup>24</sup>; an id
 * that is negative, not below its table's rows, or not below 2<sup>24</sup> is refused rather than
 * clipped, as MXNet would clip it. Every other input and every output is {@code FP32}.
 *
 * @param inputs the model's inputs
 * @param outputs the model's outputs
 * @param datatypes each input's datatype in the protocol ({@code FP32} or {@code INT64})
 * @param rows for each input of token ids, the rows of the smallest table it indexes; -1 for others
 * @param tables for each input of token ids, the name of that table's {@code Embedding} node
 * @param dimensions the model's free dimensions and what it needs of their sizes: the protocol
 *     shows each free size as -1, and a request's sizes are checked against the requirements
 */
record Signature(
    List<Port> inputs,
    List<Port> outputs,
    List<String> datatypes,
    long[] rows,
    List<String> tables,
    Dimensions dimensions) {
  /** The datatype of token ids. */
  static final String INT64 = "INT64";

  /** The other integer datatype taken for token ids. */
  static final String INT32 = "INT32";

  /** Operators that hand their input on unchanged, between an input and an embedding. */
  private static final Set<String> PASS_THROUGH =
      Set.of("BlockGrad", "stop_gradient", "_copy", "identity");

  /** The first whole number FP32 cannot hold exactly next to its neighbours: 2^24. */
  static final long EXACT = 1L << 24;

  /** Copies the lists. */
  Signature {
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    datatypes = List.copyOf(datatypes);
    rows = rows.clone();
    tables = List.copyOf(tables);
  }

  /** A model of FP32 inputs only. */
  static Signature floats(List<Port> inputs, List<Port> outputs) {
    long[] none = new long[inputs.size()];
    Arrays.fill(none, -1);
    return new Signature(
        inputs,
        outputs,
        inputs.stream().map(p -> Protocol.FP32).toList(),
        none,
        inputs.stream().map(p -> "").toList(),
        Dimensions.NONE);
  }

  /**
   * The signature of {@code predictor}: its ports, with every input that feeds an {@code
   * Embedding}'s data (its first argument), directly or through a {@code BlockGrad}, taken as token
   * ids.
   */
  static Signature of(Predictor predictor) {
    List<Port> inputs = predictor.inputs();
    long[] rows = new long[inputs.size()];
    Arrays.fill(rows, -1);
    List<String> tables = new ArrayList<>();
    List<String> types = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      tables.add("");
      types.add(Protocol.FP32);
    }
    SymbolFile graph = SymbolFile.parse(predictor.symbolJson());
    for (SymbolFile.Node n : graph.nodes()) {
      if (!n.op().equals("Embedding") || n.inputs().isEmpty()) {
        continue;
      }
      SymbolFile.Node data = graph.node(n.inputs().get(0));
      // Kiln's embedding reads its indices through a BlockGrad (no gradient flows into ids).
      while (PASS_THROUGH.contains(data.op()) && !data.inputs().isEmpty()) {
        data = graph.node(data.inputs().get(0));
      }
      String dim = n.attrs().get("input_dim");
      if (!data.isVariable() || dim == null) {
        continue;
      }
      for (int i = 0; i < inputs.size(); i++) {
        if (inputs.get(i).name().equals(data.name())) {
          long r = Long.parseLong(dim.trim());
          if (rows[i] < 0 || r < rows[i]) {
            rows[i] = r;
            tables.set(i, n.name());
          }
          types.set(i, INT64);
        }
      }
    }
    return new Signature(inputs, predictor.outputs(), types, rows, tables, predictor.dimensions());
  }

  /**
   * Whether some input has a free size: requests of different shapes are never batched together.
   */
  boolean hasFree() {
    return inputs.stream().anyMatch(Port::hasFree);
  }

  /** The inputs as {@link Dimensions#sizes} reads them. */
  List<InputSpec> specs() {
    return inputs.stream().map(p -> new InputSpec(p.name(), p.shape())).toList();
  }

  /**
   * Port {@code p}'s shape as messages write it: -1 for the batch and for a size computed from free
   * dimensions, the name of a free dimension ({@code [-1, 3, H, W]}), and every other size.
   */
  String describe(Port p) {
    List<String> parts = new ArrayList<>();
    for (int d : p.shape().dims()) {
      String name = Shape.isFree(d) ? dimensions.nameOf(d) : null;
      parts.add(name != null ? name : d < 0 ? "-1" : Integer.toString(d));
    }
    return "[" + String.join(", ", parts) + "]";
  }

  /** Whether input {@code i} takes token ids. */
  boolean ids(int i) {
    return rows[i] >= 0;
  }
}
