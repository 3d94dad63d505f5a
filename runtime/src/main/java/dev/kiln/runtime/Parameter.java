package dev.kiln.runtime;

import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.graph.Shape;

/**
 * Typed access to one model parameter. Reads copy the current values out; writes copy new
 * values into the one array every executor of the model binds, so they take effect everywhere
 * at once.
 */
public final class Parameter {
  private final ModelRuntime owner;
  private final String name;

  Parameter(ModelRuntime owner, String name) {
    this.owner = owner;
    this.name = name;
  }

  /** MXNet's name for it, e.g. {@code hidden_weight}. */
  public String name() {
    return name;
  }

  /** Its shape in MXNet's layout, e.g. {@code [128, 784]} for a dense weight. */
  public Shape shape() {
    return slot().spec().shape();
  }

  /** The current values, row-major. */
  public float[] get() {
    return slot().weight().toFloatArray();
  }

  /** Replaces the values (row-major, exactly {@code shape().size()} of them). */
  public void set(float[] values) {
    ParameterStore.Slot s = slot();
    if (values.length != s.weight().size()) {
      throw new IllegalArgumentException(owner.modelName() + " parameter " + name + " of shape "
          + shape() + " takes " + s.weight().size() + " values, got " + values.length);
    }
    s.weight().copyFrom(values);
  }

  /** The accumulated gradient since the last update, row-major. */
  public float[] grad() {
    return slot().grad().toFloatArray();
  }

  private ParameterStore.Slot slot() {
    return owner.slot(name);
  }

  @Override
  public String toString() {
    return name + shape();
  }
}
