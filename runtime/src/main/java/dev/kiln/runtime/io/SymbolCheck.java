package dev.kiln.runtime.io;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonPrimitive;
import com.google.gson.Strictness;
import com.google.gson.TypeAdapter;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Compares the symbol stored in a checkpoint with a model's own: the same operators, wired the same
 * way, with the same attributes. What MXNet writes for its own bookkeeping is ignored: the
 * top-level {@code attrs} ({@code mxnet_version}, {@code is_np_shape}), {@code arg_nodes} and
 * {@code node_row_ptr} (both derived from the nodes), the version field of each input entry, the
 * order of the nodes (they are matched by name, so two topological orders of one graph agree), the
 * order of the outputs ({@code heads}; the model's own order is what its {@code forward} returns)
 * and every hidden attribute, {@code __name__}, which MXNet adds itself ({@code __init__} on a
 * BatchNorm's moving statistics, {@code __profiler_scope__}, and the {@code __shape__}, {@code
 * __dtype__}, {@code __lr_mult__} hints Python front ends attach; none of them changes what the
 * graph computes from its parameters). Attribute values are MXNet strings and compare as MXNet
 * parses them: spaces do not count, {@code (3,3)} equals {@code [3, 3]}, {@code 0.001} equals
 * {@code 1e-3}, and {@code True}, {@code true} and {@code 1} are one boolean.
 */
final class SymbolCheck {
  /** Longest attribute value compared as a number. */
  private static final int MAX_NUMBER_CHARS = 64;

  private static final TypeAdapter<JsonElement> JSON = new Gson().getAdapter(JsonElement.class);

  /** An output of a node: the node's name and which of its outputs. */
  record Entry(String node, int output) {
    @Override
    public String toString() {
      return "'" + node + "'" + (output == 0 ? "" : " output " + output);
    }
  }

  /** A node: its operator ({@code "null"} for a variable), name, attributes and inputs. */
  record Node(String op, String name, Map<String, String> attrs, List<Entry> inputs) {
    String describe() {
      return isVariable() ? "a variable" : "operator " + op;
    }

    boolean isVariable() {
      return "null".equals(op);
    }
  }

  /** A parsed symbol: its nodes in file order and its outputs. */
  record Graph(List<Node> nodes, List<Entry> heads) {}

  private SymbolCheck() {}

  /**
   * Parses MXNet symbol JSON (what {@code MXSymbolSaveToJSON} writes, including the older {@code
   * attr}/{@code param} spellings of the attributes), strictly.
   *
   * @throws IllegalArgumentException if it is not such a symbol; the message says what was expected
   *     where
   */
  static Graph parse(String json) {
    JsonElement root;
    try {
      JsonReader reader = new JsonReader(new StringReader(json));
      reader.setStrictness(Strictness.STRICT);
      root = JSON.read(reader);
      if (reader.peek() != JsonToken.END_DOCUMENT) {
        throw new IllegalArgumentException(
            "expected the end of the text after the symbol's "
                + "closing '}', found more at "
                + reader.getPath());
      }
    } catch (IOException | JsonParseException | IllegalStateException e) {
      throw new IllegalArgumentException("not valid JSON: " + e.getMessage(), e);
    }
    JsonObject top = object(root, "the symbol");
    JsonArray nodesJson = array(top.get("nodes"), "the symbol's \"nodes\"");
    List<String> names = new ArrayList<>(nodesJson.size());
    List<JsonObject> raw = new ArrayList<>(nodesJson.size());
    for (int i = 0; i < nodesJson.size(); i++) {
      JsonObject n = object(nodesJson.get(i), "node " + i);
      raw.add(n);
      names.add(string(n.get("name"), "node " + i + "'s \"name\""));
    }
    List<Node> nodes = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      JsonObject n = raw.get(i);
      String where = "node " + i + " '" + names.get(i) + "'";
      String op = string(n.get("op"), where + "'s \"op\"");
      Map<String, String> attrs = new TreeMap<>();
      for (String key : List.of("param", "attr", "attrs")) {
        JsonElement a = n.get(key);
        if (a != null && !a.isJsonNull()) {
          for (Map.Entry<String, JsonElement> kv :
              object(a, where + "'s \"" + key + "\"").entrySet()) {
            attrs.put(kv.getKey(), string(kv.getValue(), where + "'s attribute " + kv.getKey()));
          }
        }
      }
      List<Entry> inputs = entries(n.get("inputs"), where + "'s \"inputs\"", names);
      nodes.add(new Node(op, names.get(i), attrs, inputs));
    }
    List<Entry> heads = entries(top.get("heads"), "the symbol's \"heads\"", names);
    return new Graph(nodes, heads);
  }

  /**
   * The first way in which {@code file} differs from {@code model}, as a sentence naming the node
   * and what each has, or null if they are the same graph up to what MXNet adds.
   */
  static String firstDifference(Graph file, Graph model) {
    Map<String, Node> inFile = byKey(file.nodes());
    Map<String, Node> inModel = byKey(model.nodes());
    for (Map.Entry<String, Node> e : inModel.entrySet()) {
      Node m = e.getValue();
      Node f = inFile.get(e.getKey());
      if (f == null) {
        return "the model's node '" + m.name() + "' (" + m.describe() + ") is not in the file";
      }
      String difference = nodeDifference(f, m);
      if (difference != null) {
        return "node '" + m.name() + "': " + difference;
      }
    }
    for (Map.Entry<String, Node> e : inFile.entrySet()) {
      if (!inModel.containsKey(e.getKey())) {
        Node f = e.getValue();
        return "the file has node '"
            + f.name()
            + "' ("
            + f.describe()
            + "), which the model does not have";
      }
    }
    if (!counts(file.heads()).equals(counts(model.heads()))) {
      return "the outputs are "
          + list(file.heads())
          + " in the file, the model has "
          + list(model.heads());
    }
    return null;
  }

  /** Whether {@code key} is a hidden attribute, {@code __name__}, which MXNet manages. */
  static boolean isHidden(String key) {
    return key.length() > 4 && key.startsWith("__") && key.endsWith("__");
  }

  private static String nodeDifference(Node f, Node m) {
    if (!f.op().equals(m.op())) {
      return "the file has " + f.describe() + ", the model has " + m.describe();
    }
    TreeSet<String> keys = new TreeSet<>();
    f.attrs().keySet().stream().filter(k -> !isHidden(k)).forEach(keys::add);
    m.attrs().keySet().stream().filter(k -> !isHidden(k)).forEach(keys::add);
    for (String key : keys) {
      String a = f.attrs().get(key);
      String b = m.attrs().get(key);
      if (a == null || b == null || !sameValue(a, b)) {
        return m.describe()
            + " attribute "
            + key
            + " is "
            + (a == null ? "not set" : a)
            + " in the file, the model "
            + (b == null ? "does not set it" : "has " + b);
      }
    }
    if (f.inputs().size() != m.inputs().size()) {
      return m.describe()
          + " has "
          + inputs(f.inputs().size())
          + " in the file ("
          + list(f.inputs())
          + "), the model has "
          + m.inputs().size()
          + " ("
          + list(m.inputs())
          + ")";
    }
    for (int i = 0; i < f.inputs().size(); i++) {
      if (!f.inputs().get(i).equals(m.inputs().get(i))) {
        return "input "
            + i
            + " is "
            + f.inputs().get(i)
            + " in the file, the model has "
            + m.inputs().get(i);
      }
    }
    return null;
  }

  /**
   * Whether two MXNet attribute strings mean the same: equal once spaces are dropped, or both
   * tuples of equal elements, both numbers of equal value, or both the same boolean.
   */
  static boolean sameValue(String a, String b) {
    String x = a.replaceAll("\\s+", "");
    String y = b.replaceAll("\\s+", "");
    if (x.equals(y)) {
      return true;
    }
    List<String> tx = tuple(x);
    List<String> ty = tuple(y);
    if (tx != null && ty != null) {
      if (tx.size() != ty.size()) {
        return false;
      }
      for (int i = 0; i < tx.size(); i++) {
        if (!sameValue(tx.get(i), ty.get(i))) {
          return false;
        }
      }
      return true;
    }
    Boolean bx = bool(x);
    Boolean by = bool(y);
    if (bx != null && by != null) {
      return bx.equals(by);
    }
    BigDecimal nx = number(x);
    BigDecimal ny = number(y);
    return nx != null && ny != null && nx.compareTo(ny) == 0;
  }

  private static List<String> tuple(String v) {
    if (v.length() < 2) {
      return null;
    }
    char open = v.charAt(0);
    char close = v.charAt(v.length() - 1);
    if (!((open == '(' && close == ')') || (open == '[' && close == ']'))) {
      return null;
    }
    String inner = v.substring(1, v.length() - 1);
    if (inner.indexOf('(') >= 0 || inner.indexOf('[') >= 0) {
      return null;
    }
    List<String> parts = new ArrayList<>(List.of(inner.split(",", -1)));
    if (!parts.isEmpty() && parts.get(parts.size() - 1).isEmpty()) {
      parts.remove(parts.size() - 1);
    }
    return parts;
  }

  private static Boolean bool(String v) {
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true", "1" -> Boolean.TRUE;
      case "false", "0" -> Boolean.FALSE;
      default -> null;
    };
  }

  private static BigDecimal number(String v) {
    if (v.isEmpty() || v.length() > MAX_NUMBER_CHARS) {
      return null;
    }
    try {
      return new BigDecimal(v);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The nodes by name, the second of two equal names as {@code name#1}, and so on. */
  private static Map<String, Node> byKey(List<Node> nodes) {
    Map<String, Node> out = new LinkedHashMap<>();
    Map<String, Integer> seen = new HashMap<>();
    for (Node n : nodes) {
      int k = seen.merge(n.name(), 1, Integer::sum) - 1;
      out.put(k == 0 ? n.name() : n.name() + "#" + k, n);
    }
    return out;
  }

  private static Map<Entry, Long> counts(List<Entry> entries) {
    return entries.stream().collect(Collectors.groupingBy(e -> e, Collectors.counting()));
  }

  private static String list(List<Entry> entries) {
    return entries.isEmpty()
        ? "none"
        : entries.stream().map(Entry::toString).collect(Collectors.joining(", "));
  }

  private static String inputs(int n) {
    return n + (n == 1 ? " input" : " inputs");
  }

  private static List<Entry> entries(JsonElement e, String what, List<String> names) {
    JsonArray a = array(e, what);
    List<Entry> out = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      String where = what + " entry " + i;
      JsonArray entry = array(a.get(i), where);
      if (entry.size() < 2 || entry.size() > 3) {
        throw new IllegalArgumentException(
            where
                + " has "
                + entry.size()
                + " numbers, "
                + "expected [node, output] or [node, output, version]");
      }
      int node = index(entry.get(0), where + "'s node", names.size());
      int output = index(entry.get(1), where + "'s output", Integer.MAX_VALUE);
      out.add(new Entry(names.get(node), output));
    }
    return out;
  }

  private static int index(JsonElement e, String what, int bound) {
    if (e instanceof JsonPrimitive p && p.isNumber()) {
      BigDecimal v = number(p.getAsString());
      if (v != null
          && v.signum() >= 0
          && v.stripTrailingZeros().scale() <= 0
          && v.compareTo(BigDecimal.valueOf(bound)) < 0) {
        return v.intValueExact();
      }
    }
    throw new IllegalArgumentException(
        what
            + " is "
            + shown(e)
            + ", expected an integer from 0"
            + (bound == Integer.MAX_VALUE ? "" : " to " + (bound - 1)));
  }

  private static JsonObject object(JsonElement e, String what) {
    if (e instanceof JsonObject o) {
      return o;
    }
    throw new IllegalArgumentException(what + " is " + shown(e) + ", expected a JSON object");
  }

  private static JsonArray array(JsonElement e, String what) {
    if (e instanceof JsonArray a) {
      return a;
    }
    throw new IllegalArgumentException(what + " is " + shown(e) + ", expected a JSON array");
  }

  private static String string(JsonElement e, String what) {
    if (e instanceof JsonPrimitive p && (p.isString() || p.isNumber() || p.isBoolean())) {
      return p.getAsString();
    }
    throw new IllegalArgumentException(what + " is " + shown(e) + ", expected a string");
  }

  private static String shown(JsonElement e) {
    if (e == null) {
      return "missing";
    }
    if (e instanceof JsonArray a) {
      return "an array of " + a.size();
    }
    if (e instanceof JsonObject) {
      return "an object";
    }
    String s = e.toString();
    return s.length() > 60 ? s.substring(0, 60) + "..." : s;
  }
}
