package dev.kiln.names;

import java.util.List;

/**
 * The cells of MXNet's fused {@code RNN} operator: its {@code mode} attribute, the gates stacked in
 * each matrix, the states the cell carries, and the length of the flat parameter vector.
 */
public enum RnnCell {
  /** {@code h' = tanh(W x + U h + b)}. */
  RNN_TANH("rnn_tanh", 1, List.of(StateRole.HIDDEN)),
  /** {@code h' = relu(W x + U h + b)}. */
  RNN_RELU("rnn_relu", 1, List.of(StateRole.HIDDEN)),
  /** Long short-term memory: four gates, a hidden and a cell state. */
  LSTM("lstm", 4, List.of(StateRole.HIDDEN, StateRole.CELL)),
  /** Gated recurrent unit: three gates, a hidden state. */
  GRU("gru", 3, List.of(StateRole.HIDDEN));

  private final String mode;
  private final int gates;
  private final List<StateRole> states;

  RnnCell(String mode, int gates, List<StateRole> states) {
    this.mode = mode;
    this.gates = gates;
    this.states = states;
  }

  /** MXNet's {@code mode}, e.g. {@code lstm}. */
  public String mode() {
    return mode;
  }

  /** Gates per cell: 1, 4 (LSTM) or 3 (GRU). */
  public int gates() {
    return gates;
  }

  /** The states the cell carries from step to step, in the operator's order. */
  public List<StateRole> states() {
    return states;
  }

  /** The cell whose MXNet {@code mode} is {@code mode}. */
  public static RnnCell ofMode(String mode) {
    for (RnnCell c : values()) {
      if (c.mode.equals(mode)) {
        return c;
      }
    }
    throw new IllegalArgumentException("no fused recurrent cell has MXNet mode '" + mode + "'");
  }

  /**
   * The flat parameter vector's length, MXNet's {@code GetRnnParamSize}: with {@code S = gates ·
   * units · directions}, {@code (features + units + 2) · S + (layers - 1) · (directions · units +
   * units + 2) · S}.
   *
   * @param features the first layer's input features per step
   * @param units the hidden state's size per direction
   * @param layers stacked layers
   * @param directions 1, or 2 when bidirectional
   */
  public long parameterCount(long features, long units, long layers, int directions) {
    long s = gates * units * directions;
    return (features + units + 2L) * s + (layers - 1L) * (directions * units + units + 2L) * s;
  }
}
