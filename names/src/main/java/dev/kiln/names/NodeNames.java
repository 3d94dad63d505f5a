package dev.kiln.names;

/**
 * How the names of the MXNet variables and operators that belong to one node are made from the
 * node's name: {@code <node>_<role>}. Parameters, auxiliary states and recurrent states have roles
 * of their own ({@link ParamRole}, {@link AuxRole}, {@link StateRole}); a custom layer's
 * parameter's role is its Java name in snake case.
 */
public final class NodeNames {
  private NodeNames() {}

  /** {@code <node>_<role>}, e.g. {@code hidden_weight}. */
  public static String of(String node, String role) {
    return node + "_" + role;
  }

  /** The label variable of a classifier head: {@code probs_label}. */
  public static String label(String node) {
    return of(node, "label");
  }
}
