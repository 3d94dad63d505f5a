package dev.kiln.runtime.exec;

import com.sun.jna.Pointer;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one set of parameter and gradient arrays of a model. Every executor the model binds,
 * whatever its input shapes, binds these same arrays, so an update made through one is seen by
 * all. The store owns the arrays and frees them in {@link #close()}.
 */
public final class ParameterStore implements AutoCloseable {
  /** One parameter: its spec, its weight array and its gradient array. */
  public record Slot(ParamSpec spec, Tensor weight, Tensor grad, PreparedOp zeroGrad) {
    /** The parameter's MXNet name, e.g. {@code hidden_weight}. */
    public String name() {
      return spec.name();
    }
  }

  private static final String[] ZERO_KEYS = {"shape"};

  private final Map<String, Slot> slots = new LinkedHashMap<>();

  /** Allocates a zero weight and gradient array for every spec. */
  public ParameterStore(List<ParamSpec> specs) {
    try {
      for (ParamSpec spec : specs) {
        Tensor w = Tensor.zeros(spec.shape());
        Tensor g;
        try {
          g = Tensor.zeros(spec.shape());
        } catch (RuntimeException e) {
          w.close();
          throw e;
        }
        slots.put(spec.name(), new Slot(spec, w, g,
            new PreparedOp("_zeros", new Pointer[0], new Pointer[] {g.handle()})));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The slots in MXNet's argument order. */
  public List<Slot> slots() {
    return Collections.unmodifiableList(new ArrayList<>(slots.values()));
  }

  /** The slot of parameter {@code name}, or null. */
  public Slot get(String name) {
    return slots.get(name);
  }

  /** Zeroes every gradient (after an update has consumed them). */
  public void zeroGrads() {
    for (Slot s : slots.values()) {
      s.zeroGrad().run(ZERO_KEYS, new String[] {s.spec().shape().toMxnet()});
    }
  }

  /** Frees every array. Idempotent. */
  @Override
  public void close() {
    for (Slot s : slots.values()) {
      s.weight().close();
      s.grad().close();
    }
    slots.clear();
  }
}
