package dev.kiln.differential;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
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
    JsonArray nodes = JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("nodes");
    Set<String> ops = new TreeSet<>();
    Map<String, Integer> indexInputs = new LinkedHashMap<>();
    boolean softmaxOfConvolution = false;
    for (JsonElement e : nodes) {
      JsonObject node = e.getAsJsonObject();
      String op = node.get("op").getAsString();
      ops.add(op);
      if (op.equals("softmax")) {
        JsonObject attrs = node.getAsJsonObject("attrs");
        String axis = attrs == null || !attrs.has("axis") ? "-1" : attrs.get("axis").getAsString();
        if (axis.equals("-1") || axis.equals("3")) {
          softmaxOfConvolution |= readsConvolution(nodes, node);
        }
      }
      if (op.equals("BlockGrad") && node.get("name").getAsString().endsWith("_lengths_given")) {
        // An attention's valid lengths: whole numbers, any of which Kiln holds within the keys.
        JsonObject data = input(nodes, node, 0);
        String name = data == null ? null : data.get("name").getAsString();
        if (name != null && inputs.contains(name) && data.get("op").getAsString().equals("null")) {
          indexInputs.merge(name, LENGTHS_BOUND, Math::min);
        }
        continue;
      }
      if (!op.equals("Embedding")) {
        continue;
      }
      JsonObject data = input(nodes, node, 0);
      while (data != null && !data.get("op").getAsString().equals("null")) {
        data = input(nodes, data, 0);
      }
      String name = data == null ? null : data.get("name").getAsString();
      if (name != null && inputs.contains(name)) {
        int dim = Integer.parseInt(node.getAsJsonObject("attrs").get("input_dim").getAsString());
        indexInputs.merge(name, dim, Math::min);
      }
    }
    return new SymbolInfo(ops, indexInputs, softmaxOfConvolution);
  }

  /** Whether a Convolution feeds {@code node} through operators that keep its rank. */
  private static boolean readsConvolution(JsonArray nodes, JsonObject node) {
    java.util.Deque<JsonObject> todo = new java.util.ArrayDeque<>(List.of(node));
    java.util.Set<String> seen = new java.util.HashSet<>();
    while (!todo.isEmpty()) {
      JsonObject n = todo.pop();
      JsonArray in = n.getAsJsonArray("inputs");
      for (int i = 0; in != null && i < in.size(); i++) {
        JsonObject src = nodes.get(in.get(i).getAsJsonArray().get(0).getAsInt()).getAsJsonObject();
        String op = src.get("op").getAsString();
        if (op.equals("Convolution")) {
          return true;
        }
        if (!op.equals("null")
            && !RESHAPING.contains(op)
            && seen.add(src.get("name").getAsString())) {
          todo.push(src);
        }
      }
    }
    return false;
  }

  private static JsonObject input(JsonArray nodes, JsonObject node, int i) {
    JsonArray in = node.getAsJsonArray("inputs");
    if (in == null || in.size() <= i) {
      return null;
    }
    return nodes.get(in.get(i).getAsJsonArray().get(0).getAsInt()).getAsJsonObject();
  }

  /**
   * The outputs of {@code json} (named in order by {@code outputs}) that are a {@code softmax},
   * with its axis as written.
   */
  static Map<String, Integer> softmaxOutputs(String json, List<String> outputs) {
    JsonObject symbol = JsonParser.parseString(json).getAsJsonObject();
    JsonArray nodes = symbol.getAsJsonArray("nodes");
    JsonArray heads = symbol.getAsJsonArray("heads");
    Map<String, Integer> axes = new LinkedHashMap<>();
    for (int k = 0; k < heads.size() && k < outputs.size(); k++) {
      JsonObject node =
          nodes.get(heads.get(k).getAsJsonArray().get(0).getAsInt()).getAsJsonObject();
      if (node.get("op").getAsString().equals("softmax")) {
        JsonObject attrs = node.getAsJsonObject("attrs");
        String axis = attrs == null || !attrs.has("axis") ? "-1" : attrs.get("axis").getAsString();
        axes.put(outputs.get(k), Integer.parseInt(axis));
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
