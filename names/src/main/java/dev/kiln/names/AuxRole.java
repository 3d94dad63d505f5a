package dev.kiln.names;

/**
 * An auxiliary state a built-in layer keeps (MXNet's {@code aux_states}, updated by the training
 * forward pass, not by the optimizer), and the role part of its name {@code <node>_<role>}.
 */
public enum AuxRole {
  /** A batch norm's moving mean: {@code bn_moving_mean}. Starts at zero. */
  MOVING_MEAN("moving_mean"),
  /** A batch norm's moving variance: {@code bn_moving_var}. Starts at one. */
  MOVING_VAR("moving_var");

  private final String role;

  AuxRole(String role) {
    this.role = role;
  }

  /** The role part of the name, e.g. {@code moving_mean}. */
  public String role() {
    return role;
  }

  /** The state's MXNet name on node {@code node}, e.g. {@code bn_moving_mean}. */
  public String of(String node) {
    return NodeNames.of(node, role);
  }
}
