package dev.kiln.runtime.optim;

import dev.kiln.runtime.exec.ParameterStore;
import java.util.List;

/**
 * Updates a model's parameters in place from their gradients, with MXNet's fused update operators
 * running on the shared parameter arrays. An optimizer keeps per-parameter state (prepared operator
 * calls, momentum) across steps and frees it in {@link #close()}.
 */
public interface Optimizer extends AutoCloseable {
  /** Applies one step to every parameter; gradients are read, not cleared. */
  void step(List<ParameterStore.Slot> params);

  /** Frees any state the optimizer holds. */
  @Override
  default void close() {}
}
