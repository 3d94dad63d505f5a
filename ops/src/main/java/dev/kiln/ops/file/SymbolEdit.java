package dev.kiln.ops.file;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.List;

/**
 * A symbol's JSON being rewritten: read once, as {@link SymbolFile} reads it, then edited in place
 * (an attribute set, a node's inputs replaced, two nodes swapped) and written back with everything
 * else as it was. The runtime's inference rewrites decide what to change from {@link #file()} and
 * make their changes here, so no rewrite reads MXNet's JSON on its own.
 *
 * <p>Nodes are named by their position in the file ({@link SymbolFile.Node#id()}). {@link #file()}
 * is the symbol as read, before any edit; an edit does not change it.
 */
public final class SymbolEdit {
  private final JsonObject root;
  private final JsonArray nodes;
  private final SymbolFile file;

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
    JsonArray entries = new JsonArray();
    for (SymbolFile.Entry e : inputs) {
      JsonArray entry = new JsonArray();
      entry.add(e.node());
      entry.add(e.index());
      entry.add(0);
      entries.add(entry);
    }
    nodes.get(node).getAsJsonObject().add("inputs", entries);
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

  /** The edited symbol as JSON. */
  public String toJson() {
    return root.toString();
  }
}
