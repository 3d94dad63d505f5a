package dev.kiln.ops.file;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.Strictness;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An MXNet symbol file ({@code -symbol.json}) as read, in any format MXNet 0.8 to 1.9 writes: the
 * nodes in MXNet's order (every node after the nodes it reads), each with its operator ({@code
 * null} for a variable), name, attributes and inputs, and the graph's outputs ({@code heads}).
 *
 * <p>This is Kiln's one reader of MXNet's symbol JSON: the processor reads imported files with it,
 * and the runtime reads the symbols MXNet wrote for it (a checkpoint's, a graph's after a pass)
 * with it; the runtime's rewrites of a symbol edit the same reading ({@link SymbolEdit}).
 *
 * <p>Older formats are read as MXNet 1.9.1's own loader reads them (nnvm's {@code LoadJSON} and
 * MXNet's {@code legacy_json_util.cc}): the text must be strict JSON, a node's attributes may be
 * under {@code attrs}, {@code attr} or {@code param} (merged, the later in the file winning), an
 * input is {@code [node, index]} or {@code [node, index, version]}, {@code node_row_ptr}, {@code
 * arg_nodes} and {@code backward_source_id} are not needed. Keys MXNet keeps out of an operator's
 * parameters ({@code __lr_mult__}, {@code ctx_group}, {@code weight_lr_mult}, ...) are kept apart
 * ({@link Node#hidden()}): they change nothing an operator computes. The version is the file's
 * {@code mxnet_version} (0.8.0 without one).
 */
public final class SymbolFile {
  /** MXNet's keys of user attributes, hidden from operators; as themselves or a suffix. */
  private static final List<String> HIDDEN =
      List.of("ctx_group", "lr_mult", "wd_mult", "force_mirroring", "mirror_stage");

  /** The fields that hold a node's attributes, from MXNet 0.8's to 1.9's. */
  static final List<String> ATTRIBUTES = List.of("attrs", "attr", "param");

  private static final TypeAdapter<JsonElement> JSON = new Gson().getAdapter(JsonElement.class);

  /**
   * One input of a node: output {@code index} of node {@code node}.
   *
   * @param node the node's position in the file
   * @param index which of its outputs
   */
  public record Entry(int node, int index) {}

  /**
   * One node.
   *
   * @param id its position in the file
   * @param op the MXNet operator, or {@code null} (the string) for a variable
   * @param name its name
   * @param attrs its operator attributes as MXNet wrote them, in the file's order
   * @param inputs what it reads, in the operator's argument order
   * @param hidden the attributes MXNet keeps from the operator ({@code __shape__}, {@code
   *     __lr_mult__}, {@code ctx_group}, Kiln's own {@code __kiln_shape__}, ...), in the file's
   *     order
   * @param subgraphs the graphs it runs, for an operator that a graph pass made out of several
   *     (MXNet's {@code subgraphs}, such as oneDNN's fused {@code _sg_mkldnn_conv}); empty for
   *     others
   */
  public record Node(
      int id,
      String op,
      String name,
      Map<String, String> attrs,
      List<Entry> inputs,
      Map<String, String> hidden,
      List<SymbolFile> subgraphs) {
    /** Copies the attributes, inputs and subgraphs. */
    public Node {
      attrs = Collections.unmodifiableMap(new LinkedHashMap<>(attrs));
      inputs = List.copyOf(inputs);
      hidden = Collections.unmodifiableMap(new LinkedHashMap<>(hidden));
      subgraphs = List.copyOf(subgraphs);
    }

    /** A node without hidden attributes or subgraphs. */
    public Node(int id, String op, String name, Map<String, String> attrs, List<Entry> inputs) {
      this(id, op, name, attrs, inputs, Map.of(), List.of());
    }

    /** Whether the node is a variable (an input, a parameter or a label). */
    public boolean isVariable() {
      return op.equals("null");
    }
  }

  private final List<Node> nodes;
  private final List<Entry> heads;
  private final int version;

  private SymbolFile(List<Node> nodes, List<Entry> heads, int version) {
    this.nodes = List.copyOf(nodes);
    this.heads = List.copyOf(heads);
    this.version = version;
  }

  /**
   * This file with a name of its own for every operator node, as a graph of named nodes needs:
   * MXNet identifies nodes by position, and MXNet 0.8's C++ API writes operators with empty or
   * repeated names, which MXNet 1.9.1 loads. An empty name becomes the operator's in lower case
   * with the node's position ({@code fullyconnected7}); a name an earlier node has gets {@code
   * _<k>}, the first free {@code k} from 1 ({@code fc_1}). Variables keep theirs: a variable is
   * found by its name, and one name read by several nodes is one variable. The same file when every
   * name is distinct already.
   */
  public SymbolFile namedApart() {
    Set<String> taken = new HashSet<>();
    for (Node n : nodes) {
      if (n.isVariable()) {
        taken.add(n.name());
      }
    }
    List<Node> renamed = new ArrayList<>();
    boolean changed = false;
    for (Node n : nodes) {
      String name = n.name();
      if (!n.isVariable()) {
        if (name.isEmpty()) {
          name = n.op().toLowerCase(java.util.Locale.ROOT) + n.id();
        }
        String base = name;
        for (int k = 1; taken.contains(name); k++) {
          name = base + "_" + k;
        }
        taken.add(name);
      }
      changed |= !name.equals(n.name());
      renamed.add(new Node(n.id(), n.op(), name, n.attrs(), n.inputs(), n.hidden(), n.subgraphs()));
    }
    return changed ? new SymbolFile(renamed, heads, version) : this;
  }

  /** Every node, in the file's order. */
  public List<Node> nodes() {
    return nodes;
  }

  /** The graph's outputs. */
  public List<Entry> heads() {
    return heads;
  }

  /** MXNet's version number of the writer, e.g. {@code 10901}; {@code 800} for 0.8.0. */
  public int version() {
    return version;
  }

  /** The node at {@code entry}. */
  public Node node(Entry entry) {
    return nodes.get(entry.node());
  }

  /** The node called {@code name}, or null. */
  public Node node(String name) {
    for (Node n : nodes) {
      if (n.name().equals(name)) {
        return n;
      }
    }
    return null;
  }

  /**
   * Reads {@code text}.
   *
   * @throws IllegalArgumentException saying why when it is not an MXNet symbol
   */
  public static SymbolFile parse(String text) {
    return read(tree(text));
  }

  /**
   * {@code text} as a JSON object, read strictly (as MXNet's loader reads it), with nothing after
   * it: the tree {@link #read} reads and {@link SymbolEdit} edits.
   *
   * @throws IllegalArgumentException saying why when it is not a JSON object
   */
  static JsonObject tree(String text) {
    JsonElement root;
    try {
      JsonReader reader = new JsonReader(new StringReader(text));
      reader.setStrictness(Strictness.STRICT);
      root = JSON.read(reader);
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw new IllegalArgumentException(
            "not JSON (more text after the value, at " + reader.getPath() + ")");
      }
    } catch (IOException | JsonParseException | IllegalStateException e) {
      throw new IllegalArgumentException(
          "not JSON (" + (e.getCause() != null ? e.getCause() : e).getMessage() + ")", e);
    }
    if (!root.isJsonObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    return root.getAsJsonObject();
  }

  /**
   * Reads the symbol {@code graph}.
   *
   * @throws IllegalArgumentException saying why when it is not an MXNet symbol
   */
  static SymbolFile read(JsonObject graph) {
    JsonArray jsonNodes = array(graph, "nodes", "the graph");
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < jsonNodes.size(); i++) {
      // MXNet finds nodes by position: two of one name (MXNet 0.8's C++ API writes them) load.
      Node n = node(jsonNodes.get(i), i);
      nodes.add(n);
    }
    JsonArray jsonHeads = array(graph, "heads", "the graph");
    List<Entry> heads = new ArrayList<>();
    for (JsonElement h : jsonHeads) {
      heads.add(entry(h, nodes.size(), "heads"));
    }
    if (heads.isEmpty()) {
      throw new IllegalArgumentException("it has no heads (outputs)");
    }
    return new SymbolFile(nodes, heads, version(graph));
  }

  private static Node node(JsonElement e, int id) {
    String where = "node " + id;
    if (!e.isJsonObject()) {
      throw new IllegalArgumentException(where + " is not a JSON object");
    }
    JsonObject o = e.getAsJsonObject();
    String op = string(o, "op", where);
    String name = string(o, "name", where);
    where = "node " + id + " (" + name + ")";
    Map<String, String> attrs = new LinkedHashMap<>();
    Map<String, String> hidden = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> field : o.entrySet()) {
      if (ATTRIBUTES.contains(field.getKey())) {
        if (!field.getValue().isJsonObject()) {
          throw new IllegalArgumentException(where + ": " + field.getKey() + " is not an object");
        }
        for (Map.Entry<String, JsonElement> a : field.getValue().getAsJsonObject().entrySet()) {
          if (a.getValue().isJsonPrimitive()) {
            (isHidden(a.getKey()) ? hidden : attrs).put(a.getKey(), a.getValue().getAsString());
          }
        }
      }
    }
    List<Entry> inputs = new ArrayList<>();
    for (JsonElement in : array(o, "inputs", where)) {
      Entry entry = entry(in, id, where + " inputs");
      inputs.add(entry);
    }
    List<SymbolFile> subgraphs = new ArrayList<>();
    if (o.has("subgraphs")) {
      JsonArray graphs = array(o, "subgraphs", where);
      for (int k = 0; k < graphs.size(); k++) {
        if (!graphs.get(k).isJsonObject()) {
          throw new IllegalArgumentException(where + ": subgraph " + k + " is not a JSON object");
        }
        try {
          subgraphs.add(read(graphs.get(k).getAsJsonObject()));
        } catch (IllegalArgumentException bad) {
          throw new IllegalArgumentException(
              where + ": subgraph " + k + ": " + bad.getMessage(), bad);
        }
      }
    }
    return new Node(id, op, name, attrs, inputs, hidden, subgraphs);
  }

  /**
   * Whether MXNet hides attribute {@code key} from the operator's parameters: {@code __name__}, or
   * one of MXNet's user attributes ({@code ctx_group}, {@code lr_mult}, ...) as itself or a suffix.
   */
  public static boolean isHidden(String key) {
    if (key.startsWith("__") && key.endsWith("__")) {
      return true;
    }
    for (String h : HIDDEN) {
      if (key.equals(h) || key.endsWith("_" + h)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code [node, index]} or {@code [node, index, version]}, with {@code node} before {@code
   * bound}.
   */
  private static Entry entry(JsonElement e, int bound, String where) {
    if (!e.isJsonArray() || e.getAsJsonArray().size() < 2 || e.getAsJsonArray().size() > 3) {
      throw new IllegalArgumentException(
          where + ": expected [node, index] or [node, index, version], got " + e);
    }
    JsonArray a = e.getAsJsonArray();
    int node = integer(a.get(0), where);
    int index = integer(a.get(1), where);
    if (node < 0 || node >= bound || index < 0) {
      throw new IllegalArgumentException(where + ": " + e + " names no node before it");
    }
    return new Entry(node, index);
  }

  private static int integer(JsonElement e, String where) {
    if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) {
      double d = e.getAsDouble();
      if (d == Math.rint(d) && Math.abs(d) < Integer.MAX_VALUE) {
        return (int) d;
      }
    }
    throw new IllegalArgumentException(where + ": " + e + " is not a whole number");
  }

  private static String string(JsonObject o, String key, String where) {
    JsonElement e = o.get(key);
    if (e == null || !e.isJsonPrimitive() || !e.getAsJsonPrimitive().isString()) {
      throw new IllegalArgumentException(where + " has no \"" + key + "\" string");
    }
    return e.getAsString();
  }

  private static JsonArray array(JsonObject o, String key, String where) {
    JsonElement e = o.get(key);
    if (e == null || !e.isJsonArray()) {
      throw new IllegalArgumentException(where + " has no \"" + key + "\" array");
    }
    return e.getAsJsonArray();
  }

  /** The graph's {@code attrs.mxnet_version}, {@code ["int", 10901]}; 800 when absent. */
  private static int version(JsonObject graph) {
    JsonElement attrs = graph.get("attrs");
    if (attrs != null && attrs.isJsonObject()) {
      JsonElement v = attrs.getAsJsonObject().get("mxnet_version");
      if (v != null && v.isJsonArray() && v.getAsJsonArray().size() == 2) {
        JsonElement n = v.getAsJsonArray().get(1);
        if (n.isJsonPrimitive() && n.getAsJsonPrimitive().isNumber()) {
          return n.getAsInt();
        }
      }
    }
    return 800;
  }
}
