package dev.kiln.ops.file;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A symbol's JSON being rewritten: read once, as {@link SymbolFile} reads it, then edited in place
 * (an attribute set, a node's inputs replaced, two nodes swapped, an operator node added) and
 * written back with everything else as it was. The runtime's inference rewrites decide what to
 * change from {@link #file()} and make their changes here, so no rewrite reads MXNet's JSON on its
 * own.
 *
 * <p>Nodes are named by their position in the file ({@link SymbolFile.Node#id()}). {@link #file()}
 * is the symbol as read, before any edit; an edit does not change it.
 */
public final class SymbolEdit {
  private final JsonObject root;
  private final JsonArray nodes;
  private final SymbolFile file;

  /** The nodes {@link #add} made, each with the node it is written after. */
  private final List<JsonObject> added = new ArrayList<>();

  private final List<Integer> addedAfter = new ArrayList<>();

  private SymbolEdit(JsonObject root) {
    this.file = SymbolFile.read(root);
    this.root = root;
    this.nodes = root.getAsJsonArray("nodes");
  }

  /**
   * The symbol {@code json}, to edit.
   *
   * @throws IllegalArgumentException saying why when it is not an MXNet symbol
   */
  public static SymbolEdit of(String json) {
    return new SymbolEdit(SymbolFile.tree(json));
  }

  /** The symbol as read, before any edit. */
  public SymbolFile file() {
    return file;
  }

  /**
   * Sets attribute {@code key} of node {@code node} to {@code value}: in the first of the node's
   * attribute objects ({@code attrs}, {@code attr}, {@code param}), or in a new {@code attrs}.
   */
  public void setAttr(int node, String key, String value) {
    JsonObject n = nodes.get(node).getAsJsonObject();
    JsonObject attrs = null;
    for (String field : SymbolFile.ATTRIBUTES) {
      if (attrs == null && n.get(field) instanceof JsonObject o) {
        attrs = o;
      }
    }
    if (attrs == null) {
      attrs = new JsonObject();
      n.add("attrs", attrs);
    }
    attrs.addProperty(key, value);
  }

  /** Makes node {@code node} read {@code inputs}, each written {@code [node, index, 0]}. */
  public void setInputs(int node, List<SymbolFile.Entry> inputs) {
    JsonObject target = node < nodes.size() ? null : added.get(node - nodes.size());
    JsonArray entries = new JsonArray();
    for (SymbolFile.Entry e : inputs) {
      JsonArray entry = new JsonArray();
      entry.add(e.node());
      entry.add(e.index());
      entry.add(0);
      entries.add(entry);
    }
    (target != null ? target : nodes.get(node).getAsJsonObject()).add("inputs", entries);
  }

  /**
   * Swaps the nodes at positions {@code a} and {@code b}; the entries that name either position are
   * left as they are (the caller rewires what needs it).
   */
  public void swap(int a, int b) {
    JsonElement first = nodes.get(a);
    nodes.set(a, nodes.get(b));
    nodes.set(b, first);
  }

  /**
   * Adds an operator node {@code op} named {@code name} with {@code attrs}, reading {@code inputs},
   * to be written right after node {@code after} (after the nodes added after it before). Inputs
   * and {@code after} name nodes of the file as read or ids an earlier call returned; {@link
   * #setInputs} may name the returned id too. {@link #toJson} renumbers every node so that each
   * comes after its inputs.
   *
   * @return the new node's id: the file's node count plus the number of nodes added before it
   */
  public int add(
      int after, String op, String name, Map<String, String> attrs, List<SymbolFile.Entry> inputs) {
    int id = nodes.size() + added.size();
    if (after < 0 || after >= id) {
      throw new IllegalArgumentException("no node " + after + " to add '" + name + "' after");
    }
    JsonObject n = new JsonObject();
    n.addProperty("op", op);
    n.addProperty("name", name);
    JsonObject a = new JsonObject();
    attrs.forEach(a::addProperty);
    n.add("attrs", a);
    n.add("inputs", new JsonArray());
    added.add(n);
    addedAfter.add(after);
    setInputs(id, inputs);
    return id;
  }

  /** The edited symbol as JSON. */
  public String toJson() {
    if (added.isEmpty()) {
      return root.toString();
    }
    // The order to write: every node as read, each followed by the nodes added after it.
    int total = nodes.size() + added.size();
    Map<Integer, List<Integer>> after = new LinkedHashMap<>();
    for (int i = 0; i < added.size(); i++) {
      after.computeIfAbsent(addedAfter.get(i), k -> new ArrayList<>()).add(nodes.size() + i);
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      place(i, after, order);
    }
    int[] position = new int[total];
    for (int p = 0; p < order.size(); p++) {
      position[order.get(p)] = p;
    }
    JsonObject out = root.deepCopy();
    JsonArray written = new JsonArray();
    for (int id : order) {
      JsonObject n = node(id).deepCopy();
      if (n.get("inputs") instanceof JsonArray in) {
        renumber(in, position);
      }
      written.add(n);
    }
    out.add("nodes", written);
    if (out.get("arg_nodes") instanceof JsonArray args) {
      JsonArray moved = new JsonArray();
      args.forEach(a -> moved.add(position[a.getAsInt()]));
      out.add("arg_nodes", moved);
    }
    if (out.get("heads") instanceof JsonArray heads) {
      renumber(heads, position);
    }
    // MXNet reads node_row_ptr only as an optional hint; it no longer matches.
    out.remove("node_row_ptr");
    return out.toString();
  }

  private void place(int id, Map<Integer, List<Integer>> after, List<Integer> order) {
    order.add(id);
    for (int next : after.getOrDefault(id, List.of())) {
      place(next, after, order);
    }
  }

  private JsonObject node(int id) {
    return id < nodes.size()
        ? nodes.get(id).getAsJsonObject()
        : added.get(id - nodes.size()).getAsJsonObject();
  }

  /** Rewrites the node ids of entries {@code [node, index, version]} to their new positions. */
  private static void renumber(JsonArray entries, int[] position) {
    for (int i = 0; i < entries.size(); i++) {
      JsonArray e = entries.get(i).getAsJsonArray();
      e.set(0, new JsonPrimitive(position[e.get(0).getAsInt()]));
    }
  }
}
