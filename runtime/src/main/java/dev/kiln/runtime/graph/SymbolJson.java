package dev.kiln.runtime.graph;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An MXNet symbol read from its JSON ({@code MXSymbolSaveToJSON}, the {@code -symbol.json} of a
 * checkpoint): the nodes in MXNet's topological order, each with its operator ({@code "null"} for a
 * variable), name, attributes and inputs.
 *
 * @param nodes every node, in the file's order
 * @param heads the symbol's outputs, as indices into {@code nodes}
 */
public record SymbolJson(List<Node> nodes, List<Integer> heads) {
  /**
   * The operators whose oneDNN (MKLDNN) kernels rewrite their weight input in place into a blocked
   * layout during an inference-mode forward pass, and the index of that input: MXNet 1.9.1 {@code
   * nn/mkldnn/mkldnn_convolution.cc:431}, {@code mkldnn_fully_connected.cc:197} and {@code
   * mkldnn_deconvolution.cc:112} call {@code MKLDNNDataReorderAsync} on it, which replaces the
   * whole storage chunk of the array. An array that is a view of a larger one must never be given
   * to them in inference mode: the reorder reads and overwrites the start of the shared chunk and
   * marks the whole chunk as oneDNN data.
   */
  public static final Map<String, Integer> REORDERING_INPUTS =
      Map.of("Convolution", 1, "FullyConnected", 1, "Deconvolution", 1);

  /**
   * The operators whose oneDNN kernels relabel their weight's memory layout in place in every pass,
   * training too, and the index of that input: MXNet 1.9.1 {@code mkldnn_deconvolution.cc:142} and
   * {@code :159} swap the weight's (and in backward its gradient's) logical dimensions with {@code
   * UpdateMKLDNNMemDesc}, which relabels the array's whole storage chunk from its start. On a view
   * that breaks every array sharing the chunk ({@code Check failed: !is_view}, or oneDNN's "could
   * not execute a primitive" in backward, both measured); such a weight and its gradient must be
   * arrays of their own.
   */
  public static final Map<String, Integer> RELABELLING_INPUTS = Map.of("Deconvolution", 1);

  /**
   * One node.
   *
   * @param op the operator, or {@code "null"} for a variable
   * @param name the node's name
   * @param attrs its attributes as MXNet strings
   * @param inputs the nodes it reads, as indices into {@link #nodes()}
   */
  public record Node(String op, String name, Map<String, String> attrs, List<Integer> inputs) {
    /** Whether this node is a variable (an input, parameter, label or auxiliary state). */
    public boolean isVariable() {
      return "null".equals(op);
    }
  }

  /** Copies the lists. */
  public SymbolJson {
    nodes = List.copyOf(nodes);
    heads = List.copyOf(heads);
  }

  /**
   * Parses MXNet's symbol JSON.
   *
   * @throws IllegalArgumentException if the text is not a symbol MXNet wrote
   */
  public static SymbolJson parse(String json) {
    try {
      JsonObject root = JsonParser.parseString(json).getAsJsonObject();
      List<Node> nodes = new ArrayList<>();
      for (JsonElement e : root.getAsJsonArray("nodes")) {
        JsonObject n = e.getAsJsonObject();
        Map<String, String> attrs = new LinkedHashMap<>();
        JsonObject a =
            n.has("attrs")
                ? n.getAsJsonObject("attrs")
                : n.has("attr") ? n.getAsJsonObject("attr") : null;
        if (a != null) {
          a.entrySet().forEach(kv -> attrs.put(kv.getKey(), kv.getValue().getAsString()));
        }
        List<Integer> inputs = new ArrayList<>();
        for (JsonElement in : n.getAsJsonArray("inputs")) {
          inputs.add(in.getAsJsonArray().get(0).getAsInt());
        }
        nodes.add(
            new Node(
                n.get("op").getAsString(),
                n.get("name").getAsString(),
                Map.copyOf(attrs),
                List.copyOf(inputs)));
      }
      List<Integer> heads = new ArrayList<>();
      JsonArray h = root.getAsJsonArray("heads");
      if (h != null) {
        for (JsonElement e : h) {
          heads.add(e.getAsJsonArray().get(0).getAsInt());
        }
      }
      for (Node n : nodes) {
        for (int in : n.inputs()) {
          if (in < 0 || in >= nodes.size()) {
            throw new IllegalArgumentException(
                "node '" + n.name() + "' reads node " + in + " of " + nodes.size());
          }
        }
      }
      return new SymbolJson(nodes, heads);
    } catch (JsonParseException
        | IllegalStateException
        | NullPointerException
        | UnsupportedOperationException
        | IndexOutOfBoundsException e) {
      throw new IllegalArgumentException("not an MXNet symbol: " + e.getMessage(), e);
    }
  }

  /**
   * The variables that some operator of {@link #REORDERING_INPUTS} reads as its weight: the arrays
   * MXNet's oneDNN kernels may convert in place in an inference-mode forward pass.
   */
  public Set<String> reorderedVariables() {
    return variablesRead(REORDERING_INPUTS);
  }

  /**
   * The variables that some operator of {@link #RELABELLING_INPUTS} reads as its weight: the arrays
   * that must never be views, in training either.
   */
  public Set<String> relabelledVariables() {
    return variablesRead(RELABELLING_INPUTS);
  }

  private Set<String> variablesRead(Map<String, Integer> inputs) {
    Set<String> out = new LinkedHashSet<>();
    for (Node n : nodes) {
      Integer index = inputs.get(n.op());
      if (index != null && index < n.inputs().size()) {
        Node source = nodes.get(n.inputs().get(index));
        if (source.isVariable()) {
          out.add(source.name());
        }
      }
    }
    return out;
  }
}
