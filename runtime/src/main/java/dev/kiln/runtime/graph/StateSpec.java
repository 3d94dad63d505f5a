package dev.kiln.runtime.graph;

/**
 * One recurrent state argument of a graph: the hidden state {@code <node>_state} of a recurrent
 * layer, shape {@code [layers · directions, BATCH, units]}, or an LSTM's cell state {@code
 * <node>_state_cell} of the same shape, or the initial state {@code <node>_state} of a custom
 * recurrent cell, in the shape its layer declares ({@code [BATCH, hidden]}). It is neither an input
 * nor a parameter: executors bind zeros to it, or, for a stateful layer, the state the previous
 * call ended with (its {@code stateOutput}, one of the graph's outputs after the model's own).
 *
 * @param name the argument's name
 * @param node the layer's node
 * @param cell whether this is an LSTM cell state rather than a hidden state
 * @param pattern the state's shape, {@link Shape#BATCH} where the batch size an executor is bound
 *     for goes
 * @param stateful whether the layer carries it from call to call
 * @param stateOutput for a stateful layer, the index among the graph's outputs (after the model's)
 *     of the final state; -1 otherwise
 * @param batch the layer input's first dimension as declared: a constant, or {@link Shape#BATCH}
 *     for the batch size an executor is bound for
 */
public record StateSpec(
    String name,
    String node,
    boolean cell,
    Shape pattern,
    boolean stateful,
    int stateOutput,
    int batch) {
  /** The state's shape for {@code batch}. */
  public Shape shape(int batch) {
    return pattern.withBatch(batch);
  }
}
