package dev.kiln.runtime.graph;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import dev.kiln.ops.Native;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntFunction;

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
   * The variables that some operator of {@link Native#reorderedInput()} reads as its weight: the
   * arrays MXNet's oneDNN kernels may convert in place in an inference-mode forward pass.
   */
  public Set<String> reorderedVariables() {
    return variablesRead(op -> Native.lookup(op).reorderedInput());
  }

  /**
   * The variables that some operator of {@link Native#relabelledInput()} reads as its weight: the
   * arrays that must never be views, in training either.
   */
  public Set<String> relabelledVariables() {
    return variablesRead(op -> Native.lookup(op).relabelledInput());
  }

  private Set<String> variablesRead(ToIntFunction<String> input) {
    Set<String> out = new LinkedHashSet<>();
    for (Node n : nodes) {
      int index = n.isVariable() ? -1 : input.applyAsInt(n.op());
      if (index >= 0 && index < n.inputs().size()) {
        Node source = nodes.get(n.inputs().get(index));
        if (source.isVariable()) {
          out.add(source.name());
        }
      }
    }
    return out;
  }
}
