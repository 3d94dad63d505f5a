package dev.kiln.ops.emit;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a graph node was declared: the node's name, the model method that declared it and the
 * annotation that made it. Errors from MXNet are reported against this.
 *
 * @param node the node's name (the method's name, or a node's name in an imported symbol file)
 * @param declaration the declaring method, e.g. {@code FashionMlp.hidden()}
 * @param annotation the annotation as written, e.g. {@code @Dense(units = 128)}
 * @param names the MXNet names of the node's parameters and auxiliary states by role, where they
 *     are not {@code <node>_<role>}: an imported node keeps its file's names ({@code weight} to
 *     {@code hybridsequential0_conv0_weight})
 */
public record NodeSource(
    String node, String declaration, String annotation, Map<String, String> names) {
  /** Copies the names. */
  public NodeSource {
    names = Map.copyOf(names);
  }

  /** A node whose parameters are named {@code <node>_<role>}. */
  public NodeSource(String node, String declaration, String annotation) {
    this(node, declaration, annotation, Map.of());
  }

  /** This node with its parameter or auxiliary state {@code role} named {@code name}. */
  public NodeSource named(String role, String name) {
    Map<String, String> more = new LinkedHashMap<>(names);
    more.put(role, name);
    return new NodeSource(node, declaration, annotation, more);
  }

  /** The MXNet name of the node's parameter or auxiliary state {@code role}. */
  public String name(String role) {
    String name = names.get(role);
    return name != null ? name : node + "_" + role;
  }

  /** {@code FashionMlp.hidden() @Dense(units = 128)}. */
  @Override
  public String toString() {
    return declaration + " " + annotation;
  }
}
