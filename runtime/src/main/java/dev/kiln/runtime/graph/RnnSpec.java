package dev.kiln.runtime.graph;

/**
 * The attributes of a recurrent layer ({@code @Rnn}, {@code @Lstm}, {@code @Gru}), as generated
 * code passes them to {@link GraphBuilder#rnn}: {@code RnnSpec.lstm(128).layers(2).lastStep()}.
 * Unset attributes keep the annotations' defaults (one layer, one direction, no dropout, every step
 * returned, not stateful).
 *
 * @param mode the cell
 * @param units the hidden state's size
 * @param layers stacked layers
 * @param bidirectional whether each layer also reads the sequence reversed
 * @param dropout dropout between stacked layers in training, in {@code [0, 1)}
 * @param returnSequences every step ({@code [N, T, units·dirs]}) or the last ({@code [N,
 *     units·dirs]})
 * @param stateful whether the final state is carried into the next call
 */
public record RnnSpec(
    RnnLayout.Mode mode,
    int units,
    int layers,
    boolean bidirectional,
    double dropout,
    boolean returnSequences,
    boolean stateful) {
  /** An LSTM of {@code units}. */
  public static RnnSpec lstm(int units) {
    return new RnnSpec(RnnLayout.Mode.LSTM, units, 1, false, 0, true, false);
  }

  /** A GRU of {@code units}. */
  public static RnnSpec gru(int units) {
    return new RnnSpec(RnnLayout.Mode.GRU, units, 1, false, 0, true, false);
  }

  /** A plain tanh recurrent layer of {@code units}. */
  public static RnnSpec tanh(int units) {
    return new RnnSpec(RnnLayout.Mode.RNN_TANH, units, 1, false, 0, true, false);
  }

  /** A plain ReLU recurrent layer of {@code units}. */
  public static RnnSpec relu(int units) {
    return new RnnSpec(RnnLayout.Mode.RNN_RELU, units, 1, false, 0, true, false);
  }

  /** This layer stacked {@code layers} deep. */
  public RnnSpec layers(int layers) {
    return new RnnSpec(mode, units, layers, bidirectional, dropout, returnSequences, stateful);
  }

  /** This layer in both directions. */
  public RnnSpec inBothDirections() {
    return new RnnSpec(mode, units, layers, true, dropout, returnSequences, stateful);
  }

  /** This layer with dropout {@code rate} between its stacked layers. */
  public RnnSpec dropout(double rate) {
    return new RnnSpec(mode, units, layers, bidirectional, rate, returnSequences, stateful);
  }

  /** This layer returning only its last step. */
  public RnnSpec lastStep() {
    return new RnnSpec(mode, units, layers, bidirectional, dropout, false, stateful);
  }

  /** This layer carrying its state from call to call. */
  public RnnSpec carryingState() {
    return new RnnSpec(mode, units, layers, bidirectional, dropout, returnSequences, true);
  }

  /** The parameter layout for {@code inputSize} features per step. */
  public RnnLayout layout(int inputSize) {
    return new RnnLayout(mode, inputSize, units, layers, bidirectional);
  }
}
