package dev.kiln.runtime.exec;

import dev.kiln.runtime.graph.Shape;
import java.nio.FloatBuffer;
import java.util.function.Supplier;

/**
 * One array of a bound executor as its users see it (the fields of a generated {@code XExec}): read
 * it, write it, never free it. The executor's model owns the native array; this object only reaches
 * it, so it cannot be closed, and a write to a parameter is recorded with the model's {@link
 * ParameterStore} (inference passes then see the new values).
 *
 * <p>An output resolves to the output of whichever executor ran the latest forward pass (see {@link
 * BoundExecutor}); outputs are read-only.
 */
public final class ExecArray {
  private final CallGuard guard;
  private final String name;
  private final Supplier<Tensor> array;
  private final Runnable afterWrite;
  private final boolean writable;

  private ExecArray(
      CallGuard guard, String name, Supplier<Tensor> array, Runnable afterWrite, boolean writable) {
    this.guard = guard;
    this.name = name;
    this.array = array;
    this.afterWrite = afterWrite;
    this.writable = writable;
  }

  /** Input {@code i} of {@code executor}, named {@code name}. */
  public static ExecArray input(String name, BoundExecutor executor, int i) {
    return new ExecArray(executor.guard(), name, () -> executor.input(i), () -> {}, true);
  }

  /** The gradient of input {@code i}, or null when {@code executor} computes none. */
  public static ExecArray inputGrad(String name, BoundExecutor executor, int i) {
    return executor.inputGrad(i) == null
        ? null
        : new ExecArray(executor.guard(), name, () -> executor.inputGrad(i), () -> {}, true);
  }

  /** Output {@code i} of the latest forward pass; read-only. */
  public static ExecArray output(String name, BoundExecutor executor, int i) {
    return new ExecArray(executor.guard(), name, () -> executor.output(i), () -> {}, false);
  }

  /** The head gradient of output {@code i}, read by {@code backward}. */
  public static ExecArray headGrad(String name, BoundExecutor executor, int i) {
    return new ExecArray(executor.guard(), name, () -> executor.headGrad(i), () -> {}, true);
  }

  /** The weight array of parameter {@code name}; writes are recorded with {@code store}. */
  public static ExecArray weight(ParameterStore store, String name) {
    ParameterStore.Slot slot = store.get(name);
    return new ExecArray(store.guard(), name, slot::weight, store::weightsChanged, true);
  }

  /** The gradient array of parameter {@code name}. */
  public static ExecArray grad(ParameterStore store, String name) {
    ParameterStore.Slot slot = store.get(name);
    return new ExecArray(store.guard(), name + " gradient", slot::grad, () -> {}, true);
  }

  /** The array of auxiliary state {@code name}. */
  public static ExecArray aux(ParameterStore store, String name) {
    ParameterStore.AuxSlot slot = store.aux(name);
    return new ExecArray(store.guard(), name, slot::value, () -> {}, true);
  }

  /** What the array is, e.g. {@code hidden_weight} or {@code pixels}. */
  public String name() {
    return name;
  }

  /** The array's shape. */
  public Shape shape() {
    try (CallGuard.Scope call = guard.enter(name + ".shape")) {
      return array.get().shape();
    }
  }

  /** The values, row-major (waits for pending writes). */
  public float[] get() {
    try (CallGuard.Scope call = guard.enter(name + ".get")) {
      return array.get().toFloatArray();
    }
  }

  /** Copies the values into a direct buffer with room for {@code shape().size()} floats. */
  public void copyTo(FloatBuffer out) {
    try (CallGuard.Scope call = guard.enter(name + ".copyTo")) {
      array.get().copyTo(out);
    }
  }

  /** Replaces the values (row-major, exactly {@code shape().size()} of them). */
  public void set(float[] values) {
    checkWritable();
    try (CallGuard.Scope call = guard.enter(name + ".set")) {
      array.get().copyFrom(values);
      afterWrite.run();
    }
  }

  /** Replaces the values with the next {@code shape().size()} floats of {@code values}. */
  public void copyFrom(FloatBuffer values) {
    checkWritable();
    try (CallGuard.Scope call = guard.enter(name + ".copyFrom")) {
      array.get().copyFrom(values);
      afterWrite.run();
    }
  }

  private void checkWritable() {
    if (!writable) {
      throw new UnsupportedOperationException(name + " is an output: forward writes it");
    }
  }

  @Override
  public String toString() {
    return name + shape();
  }
}
