package dev.kiln.runtime.infer;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.runtime.graph.Shape;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads and writes the input-shape attribute ({@link Predictor#SHAPE_ATTR}) of a symbol's JSON, and
 * holds the small accessors of a parsed symbol's nodes that the inference rewrites ({@link
 * ChannelPadding}, {@link ReluAfterPool}) share.
 */
final class SymbolAttrs {
  private SymbolAttrs() {}

  /** Node {@code i} of a symbol's {@code nodes}. */
  static JsonObject node(JsonArray nodes, int i) {
    return nodes.get(i).getAsJsonObject();
  }

  /** A node's operator ({@code null} for a variable). */
  static String op(JsonObject node) {
    return node.get("op").getAsString();
  }

  /** A node's attributes ({@code attrs}, or {@code attr} in files before MXNet 1.x), or null. */
  static JsonObject attrs(JsonObject node) {
    return node.has("attrs") ? node.getAsJsonObject("attrs") : node.getAsJsonObject("attr");
  }

  /** Attribute {@code key} of a node, or null. */
  static String attr(JsonObject node, String key) {
    JsonObject a = attrs(node);
    return a == null || !a.has(key) ? null : a.get(key).getAsString();
  }

  /** The node an input entry {@code [node, output, version]} reads. */
  static int inputNode(JsonElement input) {
    return input.getAsJsonArray().get(0).getAsInt();
  }

  /** The nodes whose outputs are the symbol's outputs. */
  static Set<Integer> headNodes(JsonObject root) {
    Set<Integer> heads = new HashSet<>();
    for (JsonElement h : root.getAsJsonArray("heads")) {
      heads.add(inputNode(h));
    }
    return heads;
  }

  /** {@code json} with each input's shape recorded on its variable node. */
  static String withShapes(String json, List<Port> inputs) {
    JsonObject root = JsonParser.parseString(json).getAsJsonObject();
    for (JsonElement e : root.getAsJsonArray("nodes")) {
      JsonObject n = e.getAsJsonObject();
      if (!n.get("op").getAsString().equals("null")) {
        continue;
      }
      String name = n.get("name").getAsString();
      for (Port p : inputs) {
        if (p.name().equals(name)) {
          JsonObject attrs = n.has("attrs") ? n.getAsJsonObject("attrs") : new JsonObject();
          attrs.addProperty(Predictor.SHAPE_ATTR, p.shape().toMxnet());
          n.add("attrs", attrs);
        }
      }
    }
    return root.toString();
  }

  /** The inputs recorded in {@code json}: variable name to shape, in node order. */
  static Map<String, Shape> shapes(String json) {
    Map<String, Shape> out = new LinkedHashMap<>();
    JsonObject root = JsonParser.parseString(json).getAsJsonObject();
    for (JsonElement e : root.getAsJsonArray("nodes")) {
      JsonObject n = e.getAsJsonObject();
      if (!n.get("op").getAsString().equals("null") || !n.has("attrs")) {
        continue;
      }
      JsonElement attr = n.getAsJsonObject("attrs").get(Predictor.SHAPE_ATTR);
      if (attr != null) {
        out.put(n.get("name").getAsString(), parse(attr.getAsString()));
      }
    }
    return out;
  }

  /** {@code (-1,1,28,28)} as a shape. */
  static Shape parse(String text) {
    String t = text.trim();
    if (!t.startsWith("(") || !t.endsWith(")")) {
      throw new IllegalArgumentException("not a shape: " + text);
    }
    List<Integer> dims = new ArrayList<>();
    for (String part : t.substring(1, t.length() - 1).split(",")) {
      if (!part.isBlank()) {
        dims.add(Integer.parseInt(part.trim()));
      }
    }
    return Shape.of(dims.stream().mapToInt(Integer::intValue).toArray());
  }

  /** The names of the symbol's outputs as MXNet lists them, without the {@code _output} suffix. */
  static List<String> headNames(String json) {
    JsonObject root = JsonParser.parseString(json).getAsJsonObject();
    JsonArray nodes = root.getAsJsonArray("nodes");
    List<String> out = new ArrayList<>();
    for (JsonElement h : root.getAsJsonArray("heads")) {
      int node = h.getAsJsonArray().get(0).getAsInt();
      out.add(nodes.get(node).getAsJsonObject().get("name").getAsString());
    }
    return out;
  }

  /** Every node's name, in the file's order. */
  static List<String> nodeNames(String json) {
    List<String> out = new ArrayList<>();
    JsonObject root = JsonParser.parseString(json).getAsJsonObject();
    for (JsonElement e : root.getAsJsonArray("nodes")) {
      out.add(e.getAsJsonObject().get("name").getAsString());
    }
    return out;
  }

  /** The names of the Pooling nodes with {@code global_pool} on and no {@code kernel}. */
  static List<String> globalPoolsWithoutKernel(String json) {
    List<String> out = new ArrayList<>();
    JsonObject root = JsonParser.parseString(json).getAsJsonObject();
    for (JsonElement e : root.getAsJsonArray("nodes")) {
      JsonObject n = e.getAsJsonObject();
      if (!n.get("op").getAsString().equals("Pooling") || !n.has("attrs")) {
        continue;
      }
      JsonObject attrs = n.getAsJsonObject("attrs");
      boolean global =
          attrs.has("global_pool")
              && attrs
                  .get("global_pool")
                  .getAsString()
                  .toLowerCase(java.util.Locale.ROOT)
                  .matches("true|1");
      String kernel = attrs.has("kernel") ? attrs.get("kernel").getAsString() : "()";
      if (global && kernel.replaceAll("[()\\[\\]\\s,]", "").isEmpty()) {
        out.add(n.get("name").getAsString());
      }
    }
    return out;
  }

  /**
   * The name of the first {@code elemwise_add} whose two inputs are one value (once the dropouts
   * that inference removes are skipped), or null. MXNet 1.9.1's oneDNN pass as DJL builds it ("fuse
   * FullyConnected with sum") crashes the process (SIGSEGV in {@code
   * std::vector<nnvm::NodeEntry>::operator=}) on such a sum when it binds for inference: measured
   * with {@code add(fc, fc)}, {@code add(dropout(fc), fc)} and {@code add(dropout(fc),
   * dropout(fc))}, and on the differential suite's seed 86.
   */
  static String selfAdd(String json) {
    JsonArray nodes = JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("nodes");
    for (JsonElement e : nodes) {
      JsonObject n = e.getAsJsonObject();
      if (!n.get("op").getAsString().equals("elemwise_add")) {
        continue;
      }
      JsonArray in = n.getAsJsonArray("inputs");
      if (in.size() == 2 && source(nodes, in.get(0)).equals(source(nodes, in.get(1)))) {
        return n.get("name").getAsString();
      }
    }
    return null;
  }

  /** The entry {@code [node, output]} an input reads, through any dropouts. */
  private static String source(JsonArray nodes, JsonElement input) {
    JsonArray entry = input.getAsJsonArray();
    int node = entry.get(0).getAsInt();
    int output = entry.get(1).getAsInt();
    JsonObject n = nodes.get(node).getAsJsonObject();
    while (n.get("op").getAsString().equals("Dropout") && output == 0) {
      JsonArray first = n.getAsJsonArray("inputs").get(0).getAsJsonArray();
      node = first.get(0).getAsInt();
      output = first.get(1).getAsInt();
      n = nodes.get(node).getAsJsonObject();
    }
    return node + ":" + output;
  }
}
