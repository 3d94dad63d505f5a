package dev.kiln.differential;

import dev.kiln.ops.file.SymbolFile;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the checks need to know about a compiled model, read from its own MXNet symbol JSON (so that
 * a regression source needs no metadata beside it): the operators it uses, and which inputs are
 * indices of an {@code Embedding} (through the {@code BlockGrad} Kiln puts before it) with the
 * table size their values must stay below.
 *
 * @param ops every operator in the symbol
 * @param indexInputs input name to the smallest {@code input_dim} of the embeddings it feeds, or
 *     {@link #LENGTHS_BOUND} for an attention's valid lengths
 * @param lastAxisSoftmaxOfConvolution whether a softmax over the last axis reads a convolution's
 *     output, directly or through layers that keep it four-dimensional (see {@link ModelRun#djl})
 */
record SymbolInfo(
    Set<String> ops, Map<String, Integer> indexInputs, boolean lastAxisSoftmaxOfConvolution) {
  /**
   * The values an attention's lengths input is fed are below this: 0 (no key step), up to and past
   * the key steps of a drawn sequence.
   */
  static final int LENGTHS_BOUND = 9;

  /** Operators after which a tensor is no longer a convolution's four-dimensional output. */
  private static final Set<String> RESHAPING =
      Set.of("Reshape", "Flatten", "FullyConnected", "Embedding", "dot");

  /** Parses {@code json} (MXNet's {@code -symbol.json}) for the model's {@code inputs}. */
  static SymbolInfo parse(String json, List<String> inputs) {
    SymbolFile symbol = SymbolFile.parse(json);
    Set<String> ops = new TreeSet<>();
    Map<String, Integer> indexInputs = new LinkedHashMap<>();
    boolean softmaxOfConvolution = false;
    for (SymbolFile.Node node : symbol.nodes()) {
      String op = node.op();
      ops.add(op);
      if (op.equals("softmax")) {
        String axis = node.attrs().getOrDefault("axis", "-1");
        if (axis.equals("-1") || axis.equals("3")) {
          softmaxOfConvolution |= readsConvolution(symbol, node);
        }
      }
      if (op.equals("BlockGrad") && node.name().endsWith("_lengths_given")) {
        // An attention's valid lengths: whole numbers, any of which Kiln holds within the keys.
        SymbolFile.Node data = input(symbol, node, 0);
        String name = data == null ? null : data.name();
        if (name != null && inputs.contains(name) && data.isVariable()) {
          indexInputs.merge(name, LENGTHS_BOUND, Math::min);
        }
        continue;
      }
      if (!op.equals("Embedding")) {
        continue;
      }
      SymbolFile.Node data = input(symbol, node, 0);
      while (data != null && !data.isVariable()) {
        data = input(symbol, data, 0);
      }
      String name = data == null ? null : data.name();
      if (name != null && inputs.contains(name)) {
        int dim = Integer.parseInt(node.attrs().get("input_dim"));
        indexInputs.merge(name, dim, Math::min);
      }
    }
    return new SymbolInfo(ops, indexInputs, softmaxOfConvolution);
  }

  /** Whether a Convolution feeds {@code node} through operators that keep its rank. */
  private static boolean readsConvolution(SymbolFile symbol, SymbolFile.Node node) {
    Deque<SymbolFile.Node> todo = new ArrayDeque<>(List.of(node));
    Set<String> seen = new HashSet<>();
    while (!todo.isEmpty()) {
      SymbolFile.Node n = todo.pop();
      for (SymbolFile.Entry in : n.inputs()) {
        SymbolFile.Node src = symbol.node(in);
        if (src.op().equals("Convolution")) {
          return true;
        }
        if (!src.isVariable() && !RESHAPING.contains(src.op()) && seen.add(src.name())) {
          todo.push(src);
        }
      }
    }
    return false;
  }

  private static SymbolFile.Node input(SymbolFile symbol, SymbolFile.Node node, int i) {
    return node.inputs().size() <= i ? null : symbol.node(node.inputs().get(i));
  }

  /**
   * The outputs of {@code json} (named in order by {@code outputs}) that are a {@code softmax},
   * with its axis as written.
   */
  static Map<String, Integer> softmaxOutputs(String json, List<String> outputs) {
    SymbolFile symbol = SymbolFile.parse(json);
    List<SymbolFile.Entry> heads = symbol.heads();
    Map<String, Integer> axes = new LinkedHashMap<>();
    for (int k = 0; k < heads.size() && k < outputs.size(); k++) {
      SymbolFile.Node node = symbol.node(heads.get(k));
      if (node.op().equals("softmax")) {
        axes.put(outputs.get(k), Integer.parseInt(node.attrs().getOrDefault("axis", "-1")));
      }
    }
    return axes;
  }

  /** Whether the model has a fused recurrent layer (MXNet's {@code RNN}). */
  boolean recurrent() {
    return ops.contains("RNN");
  }

  /**
   * Whether a training-mode forward pass computes another function than an inference-mode one
   * (dropout masks, batch statistics).
   */
  boolean trainingDiffers() {
    return ops.contains("Dropout") || ops.contains("BatchNorm");
  }
}
