package dev.kiln.names;

/**
 * A recurrent layer's state, carried between steps (and, for a stateful layer, between calls): the
 * name of the graph argument it enters by and of the output it leaves by.
 */
public enum StateRole {
  /** The hidden state {@code h}: {@code lstm_state}. Every recurrent layer has it. */
  HIDDEN("state"),
  /** An LSTM's cell state {@code c}: {@code lstm_state_cell}. */
  CELL("state_cell");

  private final String role;

  StateRole(String role) {
    this.role = role;
  }

  /** The role part of the name, e.g. {@code state_cell}. */
  public String role() {
    return role;
  }

  /** The state's name on node {@code node}, e.g. {@code lstm_state_cell}. */
  public String of(String node) {
    return NodeNames.of(node, role);
  }
}
