package dev.kiln.runtime.exec;

import dev.kiln.runtime.graph.Shape;

/**
 * Typed access to one model parameter, or to one auxiliary state (e.g. a {@code BatchNorm}'s moving
 * mean). Reads copy the current values out; writes copy new values into the one array every
 * executor of the model binds, so they take effect everywhere at once.
 */
public final class Parameter {
  private final ParameterStore store;
  private final String model;
  private final String name;
  private final boolean auxiliary;
  private final boolean frozen;

  /**
   * Access to parameter (or, when {@code auxiliary}, auxiliary state) {@code name} of {@code
   * store}, belonging to the model called {@code model} in messages.
   */
  public Parameter(
      ParameterStore store, String model, String name, boolean auxiliary, boolean frozen) {
    if (auxiliary ? store.aux(name) == null : store.get(name) == null) {
      throw new IllegalArgumentException(
          model + " has no " + (auxiliary ? "auxiliary state '" : "parameter '") + name + "'");
    }
    this.store = store;
    this.model = model;
    this.name = name;
    this.auxiliary = auxiliary;
    this.frozen = frozen;
  }

  /** The name of the model the parameter belongs to, e.g. {@code FashionMlpModel}. */
  public String model() {
    return model;
  }

  /** MXNet's name for it, e.g. {@code hidden_weight}. */
  public String name() {
    return name;
  }

  /** Its shape in MXNet's layout, e.g. {@code [128, 784]} for a dense weight. */
  public Shape shape() {
    try (CallGuard.Scope call = store.guard().enter(name + ".shape")) {
      return values().shape();
    }
  }

  /** Whether this is an auxiliary state (updated by MXNet itself, no gradient). */
  public boolean isAuxiliary() {
    return auxiliary;
  }

  /**
   * Whether optimizers change it: false for an auxiliary state and for a parameter of a
   * {@code @Frozen} node.
   */
  public boolean isTrainable() {
    return !auxiliary && !frozen;
  }

  /** The current values, row-major. */
  public float[] get() {
    try (CallGuard.Scope call = store.guard().enter(name + ".get")) {
      return values().toFloatArray();
    }
  }

  /** Replaces the values (row-major, exactly {@code shape().size()} of them). */
  public void set(float[] values) {
    try (CallGuard.Scope call = store.guard().enter(name + ".set")) {
      setLocked(values);
    }
  }

  private void setLocked(float[] values) {
    Tensor t = values();
    if (values.length != t.size()) {
      throw new IllegalArgumentException(
          model
              + " parameter "
              + name
              + " of shape "
              + shape()
              + " takes "
              + t.size()
              + " values, got "
              + values.length);
    }
    t.copyFrom(values);
    if (!auxiliary) {
      store.weightsChanged();
    }
  }

  /**
   * The accumulated gradient since the last update, row-major; zeros for a frozen parameter.
   *
   * @throws IllegalStateException for an auxiliary state, which has no gradient
   */
  public float[] grad() {
    if (auxiliary) {
      throw new IllegalStateException(model + " auxiliary state " + name + " has no gradient");
    }
    try (CallGuard.Scope call = store.guard().enter(name + ".grad")) {
      return slot().grad().toFloatArray();
    }
  }

  /**
   * This parameter seen through {@code view}: reads load from, and writes store to, the one array
   * every executor binds.
   */
  public View view(ParamView view) {
    return new View(view);
  }

  /** This matrix parameter as its transpose, e.g. a dense weight as the {@code [in, out]} W. */
  public View transposed() {
    return view(ParamView.transpose());
  }

  /** A parameter seen through a {@link ParamView}. */
  public final class View {
    private final ParamView view;

    private View(ParamView view) {
      this.view = view;
    }

    /** The view's shape. */
    public Shape shape() {
      return view.shape(Parameter.this.shape());
    }

    /** The current values in the view's layout. */
    public float[] get() {
      return view.load(Parameter.this.get(), Parameter.this.shape());
    }

    /** Writes values given in the view's layout; every executor sees them at once. */
    public void set(float[] values) {
      long n = shape().size();
      if (values.length != n) {
        throw new IllegalArgumentException(
            model
                + " parameter "
                + name
                + " viewed as "
                + shape()
                + " takes "
                + n
                + " values, got "
                + values.length);
      }
      Parameter.this.set(view.store(values, Parameter.this.shape()));
    }
  }

  private ParameterStore.Slot slot() {
    ParameterStore.Slot s = store.get(name);
    if (s == null) {
      throw new IllegalStateException(model + " is closed");
    }
    return s;
  }

  private Tensor values() {
    if (auxiliary) {
      ParameterStore.AuxSlot a = store.aux(name);
      if (a == null) {
        throw new IllegalStateException(model + " is closed");
      }
      return a.value();
    }
    return slot().weight();
  }

  @Override
  public String toString() {
    return name + shape();
  }
}
