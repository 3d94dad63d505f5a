package dev.kiln.runtime.exec;

import com.sun.jna.Pointer;
import dev.kiln.runtime.graph.AuxSpec;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The one set of parameter and gradient arrays of a model, and of its auxiliary states (e.g. a
 * {@code BatchNorm}'s moving averages). Every executor the model binds, whatever its input
 * shapes, binds these same arrays, so an update made through one is seen by all. The store owns
 * the arrays and frees them in {@link #close()}.
 */
public final class ParameterStore implements AutoCloseable {
  /** One parameter: its spec, its weight array and its gradient array. */
  public record Slot(ParamSpec spec, Tensor weight, Tensor grad) {
    /** The parameter's MXNet name, e.g. {@code hidden_weight}. */
    public String name() {
      return spec.name();
    }
  }

  /**
   * One auxiliary state: its spec and its array, which MXNet reads and (in training-mode
   * forward passes) writes itself.
   */
  public record AuxSlot(AuxSpec spec, Tensor value) {
    /** The state's MXNet name, e.g. {@code bn_moving_mean}. */
    public String name() {
      return spec.name();
    }
  }

  private static final String[] ZERO_KEYS = {"shape"};

  private final Map<String, Slot> slots = new LinkedHashMap<>();
  private final Map<String, AuxSlot> auxSlots = new LinkedHashMap<>();
  private Tensor flatWeight;
  private Tensor flatGrad;
  private Slot fused;
  private PreparedOp zeroGrad;
  private String[] zeroGradValues;

  /** Allocates a zero weight and gradient array for every spec. */
  public ParameterStore(List<ParamSpec> specs) {
    this(specs, List.of(), name -> false);
  }

  /**
   * Allocates a zero weight and gradient array for every parameter spec, and an array for every
   * auxiliary state, filled with its kind's initial value (moving means 0, variances 1).
   */
  public ParameterStore(List<ParamSpec> specs, List<AuxSpec> auxSpecs,
      Predicate<String> frozen) {
    try {
      for (AuxSpec spec : auxSpecs) {
        Tensor v = Tensor.zeros(spec.shape());
        auxSlots.put(spec.name(), new AuxSlot(spec, v));
        if (spec.kind().initialValue() != 0f) {
          v.fill(spec.kind().initialValue());
        }
      }
      long total = specs.stream().filter(p -> !frozen.test(p.name()))
          .mapToLong(p -> p.shape().size()).sum();
      if (total > 0) {
        flatWeight = Tensor.zeros(Shape.of((int) total));
        flatGrad = Tensor.zeros(Shape.of((int) total));
        fused = new Slot(new ParamSpec("(trainable parameters)", flatWeight.shape(), null,
            ParamSpec.Kind.WEIGHT), flatWeight, flatGrad);
        zeroGrad = new PreparedOp("_zeros", new Pointer[0], new Pointer[] {flatGrad.handle()});
        zeroGradValues = new String[] {flatGrad.shape().toMxnet()};
      }
      long offset = 0;
      for (ParamSpec spec : specs) {
        Tensor w;
        Tensor g;
        if (frozen.test(spec.name())) {
          w = Tensor.zeros(spec.shape());
          g = Tensor.zeros(spec.shape());
        } else {
          w = flatWeight.view(offset, spec.shape());
          g = flatGrad.view(offset, spec.shape());
          offset += spec.shape().size();
        }
        slots.put(spec.name(), new Slot(spec, w, g));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /**
   * What optimizers update: every trainable parameter lives in one contiguous array (each
   * parameter's own arrays are views of it), so one fused update operator per step updates them
   * all, where one per parameter would pay MXNet's dispatch cost again and again. Element-wise
   * optimizers give the same result either way. Empty when every parameter is frozen.
   */
  public List<Slot> fusedSlots() {
    return fused == null ? List.of() : List.of(fused);
  }

  /** The slots in MXNet's argument order. */
  public List<Slot> slots() {
    return Collections.unmodifiableList(new ArrayList<>(slots.values()));
  }

  /** The auxiliary states, in MXNet's order. */
  public List<AuxSlot> auxSlots() {
    return Collections.unmodifiableList(new ArrayList<>(auxSlots.values()));
  }

  /** The auxiliary state {@code name}, or null. */
  public AuxSlot aux(String name) {
    return auxSlots.get(name);
  }

  /** The slot of parameter {@code name}, or null. */
  public Slot get(String name) {
    return slots.get(name);
  }

  /**
   * Zeroes every gradient (after an update has consumed them): one operator over the fused
   * gradient array. Frozen parameters are bound without gradients, so theirs stay zero.
   */
  public void zeroGrads() {
    if (zeroGrad != null) {
      zeroGrad.run(ZERO_KEYS, zeroGradValues);
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
    for (AuxSlot a : auxSlots.values()) {
      a.value().close();
    }
    auxSlots.clear();
    if (flatWeight != null) {
      flatWeight.close();
      flatGrad.close();
    }
    fused = null;
  }
}
