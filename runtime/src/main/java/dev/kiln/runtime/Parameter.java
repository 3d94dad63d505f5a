package dev.kiln.runtime;

import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Shape;

/**
 * Typed access to one model parameter, or to one auxiliary state (e.g. a {@code BatchNorm}'s
 * moving mean). Reads copy the current values out; writes copy new values into the one array
 * every executor of the model binds, so they take effect everywhere at once.
 */
public final class Parameter {
  private final ModelRuntime owner;
  private final String name;
  private final boolean auxiliary;

  Parameter(ModelRuntime owner, String name) {
    this(owner, name, false);
  }

  Parameter(ModelRuntime owner, String name, boolean auxiliary) {
    this.owner = owner;
    this.name = name;
    this.auxiliary = auxiliary;
  }

  /** MXNet's name for it, e.g. {@code hidden_weight}. */
  public String name() {
    return name;
  }

  /** Its shape in MXNet's layout, e.g. {@code [128, 784]} for a dense weight. */
  public Shape shape() {
    return values().shape();
  }

  /** Whether this is an auxiliary state (updated by MXNet itself, no gradient). */
  public boolean isAuxiliary() {
    return auxiliary;
  }

  /**
   * Whether optimizers change it: false for an auxiliary state and for a parameter of a {@code
   * @Frozen} node.
   */
  public boolean isTrainable() {
    return !auxiliary && !owner.isFrozen(name);
  }

  /** The current values, row-major. */
  public float[] get() {
    return values().toFloatArray();
  }

  /** Replaces the values (row-major, exactly {@code shape().size()} of them). */
  public void set(float[] values) {
    Tensor t = values();
    if (values.length != t.size()) {
      throw new IllegalArgumentException(owner.modelName() + " parameter " + name + " of shape "
          + shape() + " takes " + t.size() + " values, got " + values.length);
    }
    t.copyFrom(values);
  }

  /**
   * The accumulated gradient since the last update, row-major; zeros for a frozen parameter.
   *
   * @throws IllegalStateException for an auxiliary state, which has no gradient
   */
  public float[] grad() {
    if (auxiliary) {
      throw new IllegalStateException(owner.modelName() + " auxiliary state " + name
          + " has no gradient");
    }
    return owner.slot(name).grad().toFloatArray();
  }

  private Tensor values() {
    return auxiliary ? owner.auxSlot(name).value() : owner.slot(name).weight();
  }

  @Override
  public String toString() {
    return name + shape();
  }
}
