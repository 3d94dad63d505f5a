package dev.kiln.runtime.exec;

import dev.kiln.runtime.graph.StateSpec;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The recurrent states of one model ({@link StateSpec}): the arrays its executors bind as state
 * arguments, one set per batch size.
 *
 * <p>A layer that is not stateful starts every call from zeros: its arrays are zero-filled once and
 * never written. A stateful layer starts each call from the state the previous call ended with:
 * after a forward pass, MXNet copies the executor's final-state outputs into the state arrays
 * ({@code _copyto}, no trip through Java). The copy is made when the next call starts, not right
 * after the forward pass, because a training step's backward pass still reads the state it started
 * from. A stateful model keeps one batch size until {@link #reset()}; gradients never cross calls
 * (the states are bound without gradients).
 *
 * <p>Owned by the model's {@link ExecutorCache}; freed by {@link #close()}.
 */
public final class StateStore implements AutoCloseable {
  private static final String[] NO_STRINGS = {};

  private final String model;
  private final List<StateSpec> specs;
  private final int device;
  private final Map<String, Map<Integer, Tensor>> zeros = new HashMap<>();
  private final Map<String, Map<Integer, Tensor>> carried = new LinkedHashMap<>();
  private List<PreparedOp> pending = List.of();
  private int batch = -1;

  /** The states of the model called {@code model}, on {@code cpu(device)}. */
  public StateStore(String model, List<StateSpec> specs, int device) {
    this.model = model;
    this.device = device;
    this.specs = List.copyOf(specs);
  }

  /** Whether any layer carries its state. */
  public boolean isStateful() {
    return specs.stream().anyMatch(StateSpec::stateful);
  }

  /** The state specs. */
  public List<StateSpec> specs() {
    return specs;
  }

  /**
   * The array to bind for state {@code spec} at {@code batch}: its carried state when the layer is
   * stateful and {@code carry}, otherwise zeros.
   */
  public Tensor array(StateSpec spec, int batch, boolean carry) {
    Map<String, Map<Integer, Tensor>> table = spec.stateful() && carry ? carried : zeros;
    return table
        .computeIfAbsent(spec.name(), k -> new HashMap<>())
        .computeIfAbsent(batch, b -> Tensor.zeros(spec.shape(b), device));
  }

  /**
   * Before a call that carries state: the batch size must be the one the carried state has, unless
   * the state was reset; then the previous call's final states are copied in.
   *
   * @throws IllegalStateException naming the layer and both sizes when the batch changed
   */
  public void beforeCall(int callBatch) {
    if (!isStateful()) {
      return;
    }
    if (batch >= 0 && callBatch != batch) {
      String layer = specs.stream().filter(StateSpec::stateful).findFirst().orElseThrow().node();
      throw new IllegalStateException(
          model
              + ": stateful layer '"
              + layer
              + "' carries the "
              + "state of a batch of "
              + batch
              + " from the previous call; this call has a batch of "
              + callBatch
              + ". Call resetState() first to start new sequences, or keep the batch "
              + "size");
    }
    flush();
    batch = callBatch;
  }

  /** Records the copies to make before the next call: the final states of the latest pass. */
  public void afterForward(List<PreparedOp> carry) {
    pending = carry;
  }

  /** Makes the pending copies now (the next call, or a read of the state, needs them). */
  public void flush() {
    for (PreparedOp copy : pending) {
      copy.run(NO_STRINGS, NO_STRINGS);
    }
    pending = List.of();
  }

  /** Zeroes every carried state and forgets its batch size: the next call starts anew. */
  public void reset() {
    pending = List.of();
    for (Map<Integer, Tensor> byBatch : carried.values()) {
      for (Tensor t : byBatch.values()) {
        t.fill(0f);
      }
    }
    batch = -1;
  }

  /** The batch size of the carried state, or -1 after a reset. */
  public int batch() {
    return batch;
  }

  /**
   * The carried state of every stateful layer, by state name, for the current batch size (zeros
   * when nothing has run since the last reset: then the map is empty).
   */
  public Map<String, float[]> read() {
    flush();
    Map<String, float[]> out = new LinkedHashMap<>();
    if (batch < 0) {
      return out;
    }
    for (StateSpec s : specs) {
      if (s.stateful()) {
        out.put(s.name(), array(s, batch, true).toFloatArray());
      }
    }
    return out;
  }

  /**
   * Replaces the carried states (every stateful state, by name) with {@code values} for a batch of
   * {@code batchSize}; the next call must have that batch size.
   */
  public void write(int batchSize, Map<String, float[]> values) {
    List<String> expected = new ArrayList<>();
    for (StateSpec s : specs) {
      if (s.stateful()) {
        expected.add(s.name());
      }
    }
    if (!values.keySet().equals(new java.util.HashSet<>(expected))) {
      throw new IllegalArgumentException(
          model + ": a state holds " + expected + ", got " + values.keySet());
    }
    for (StateSpec s : specs) {
      if (s.stateful()) {
        Tensor t = array(s, batchSize, true);
        float[] v = values.get(s.name());
        if (v == null || v.length != t.size()) {
          throw new IllegalArgumentException(
              model
                  + ": state "
                  + s.name()
                  + " of shape "
                  + t.shape()
                  + " takes "
                  + t.size()
                  + " values, got "
                  + (v == null ? "null" : v.length));
        }
      }
    }
    pending = List.of();
    for (StateSpec s : specs) {
      if (s.stateful()) {
        array(s, batchSize, true).copyFrom(values.get(s.name()));
      }
    }
    batch = batchSize;
  }

  /** Frees every state array. */
  @Override
  public void close() {
    pending = List.of();
    for (Map<String, Map<Integer, Tensor>> table : List.of(zeros, carried)) {
      for (Map<Integer, Tensor> byBatch : table.values()) {
        byBatch.values().forEach(Tensor::close);
      }
      table.clear();
    }
  }
}
