package dev.kiln.runtime.exec;

import dev.kiln.runtime.graph.AuxSpec;
import dev.kiln.runtime.graph.ParamSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.graph.StateSpec;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The one set of parameter and gradient arrays of a model, and of its auxiliary states (e.g. a
 * {@code BatchNorm}'s moving averages). Every executor the model binds, whatever its input shapes,
 * binds these same arrays, so an update made through one is seen by all. The store owns the arrays
 * and frees them in {@link #close()}.
 *
 * <p><b>Layout.</b> The trainable parameters live in one contiguous weight array and one contiguous
 * gradient array; each parameter's own arrays are views of them, so one fused update operator per
 * step updates every parameter. Frozen parameters and auxiliary states are arrays of their own, and
 * so are the trainable parameters whose layout oneDNN relabels in place in every pass ({@link
 * dev.kiln.runtime.graph.Graph#relabelledWeights()}, a transposed convolution's weight), which the
 * optimizer steps one by one beside the fused arrays ({@link #fusedSlots()}).
 *
 * <p><b>Views and oneDNN.</b> In an inference-mode forward pass MXNet's oneDNN kernels for {@code
 * Convolution} and {@code FullyConnected} rewrite their weight array in place into a blocked layout
 * ({@link dev.kiln.ops.Native#reorderedInput()}); done to a view, that rewrite replaces the storage
 * shared with every other parameter and corrupts them all. So each such weight also has an
 * <em>inference copy</em>, an array of its own that inference executors bind instead of the view
 * ({@link #inferenceWeight}). Training-mode passes never rewrite weights, and training executors
 * bind the views. The copies are refreshed from the views before an inference pass whenever the
 * weights changed since the last refresh: every path that writes weights calls {@link
 * #weightsChanged()}.
 */
public final class ParameterStore implements AutoCloseable {
  /**
   * One parameter: its spec, its weight array and its gradient array. A trainable parameter's
   * arrays are views of the fused arrays: {@code fused} is the slot spanning them and {@code
   * offset} where this parameter starts in it; a parameter of its own has no fused slot.
   */
  public record Slot(ParamSpec spec, Tensor weight, Tensor grad, Slot fused, long offset) {
    /** A parameter with arrays of its own. */
    public Slot(ParamSpec spec, Tensor weight, Tensor grad) {
      this(spec, weight, grad, null, -1);
    }

    /** The parameter's MXNet name, e.g. {@code hidden_weight}. */
    public String name() {
      return spec.name();
    }
  }

  /**
   * One auxiliary state: its spec and its array, which MXNet reads and (in training-mode forward
   * passes) writes itself.
   */
  public record AuxSlot(AuxSpec spec, Tensor value) {
    /** The state's MXNet name, e.g. {@code bn_moving_mean}. */
    public String name() {
      return spec.name();
    }
  }

  private static final String[] ZERO_KEYS = {"shape"};
  private static final String[] NO_STRINGS = {};
  private static final String AT_NEXT_CALL =
      " (found as the model's next call began: the training step that applied it returned"
          + " before its gradients were known)";

  private final Map<String, Slot> slots = new LinkedHashMap<>();
  private final Map<String, AuxSlot> auxSlots = new LinkedHashMap<>();
  private Tensor flatWeight;
  private Tensor flatGrad;
  private Slot fused;
  private final List<Slot> ownSlots = new ArrayList<>();
  private final List<PreparedOp> zeroGrad = new ArrayList<>();
  private final List<String[]> zeroGradValues = new ArrayList<>();
  private final Map<String, ArrayCopy> inferenceCopies = new LinkedHashMap<>();
  private long weightsVersion;
  private long copiesVersion = -1;
  private Gradients gradients = Gradients.ZERO;
  private final CallGuard guard;
  private final StateStore states;
  private final int device;
  private boolean checkGradients = true;
  private FiniteCheck gradientCheck;
  private List<ArrayCopy> keptWeights;
  private final List<ArrayCopy> keptAux = new ArrayList<>();
  private long auxKeptFor = -1;
  private long updates;

  /** What the shared gradient arrays hold. */
  public enum Gradients {
    /** Zeros: nothing accumulated since they were last cleared. */
    ZERO,
    /** Sums of {@code backward} passes not yet applied by an update. */
    ACCUMULATED,
    /** Values already applied (or written by a training step that applied them): stale. */
    CONSUMED
  }

  /** Allocates a zero weight and gradient array for every spec. */
  public ParameterStore(List<ParamSpec> specs) {
    this(
        specs,
        List.of(),
        name -> false,
        Set.of(),
        Set.of(),
        new CallGuard("parameters"),
        List.of(),
        0);
  }

  /**
   * Allocates a zero weight and gradient array for every parameter spec, and an array for every
   * auxiliary state, filled with its kind's initial value (moving means 0, variances 1). Trainable
   * parameters named in {@code reordered} (see {@link
   * dev.kiln.runtime.graph.Graph#reorderedWeights()}) also get an inference copy; those named in
   * {@code relabelled} ({@link dev.kiln.runtime.graph.Graph#relabelledWeights()}) get arrays of
   * their own instead of views of the fused arrays. Every user of the arrays enters {@code guard}
   * first. {@code states} are the graph's recurrent states; every array lives on CPU context {@code
   * cpu(device)}.
   */
  public ParameterStore(
      List<ParamSpec> specs,
      List<AuxSpec> auxSpecs,
      Predicate<String> frozen,
      Set<String> reordered,
      Set<String> relabelled,
      CallGuard guard,
      List<StateSpec> states,
      int device) {
    this.guard = guard;
    this.device = device;
    this.states = new StateStore(guard.model(), states, device);
    try {
      for (AuxSpec spec : auxSpecs) {
        Tensor v = Tensor.zeros(spec.shape(), device);
        auxSlots.put(spec.name(), new AuxSlot(spec, v));
        if (spec.kind().initialValue() != 0f) {
          v.fill(spec.kind().initialValue());
        }
      }
      Predicate<String> inFused = name -> !frozen.test(name) && !relabelled.contains(name);
      long total =
          specs.stream().filter(p -> inFused.test(p.name())).mapToLong(p -> p.shape().size()).sum();
      if (total > 0) {
        flatWeight = Tensor.zeros(Shape.of((int) total), device);
        flatGrad = Tensor.zeros(Shape.of((int) total), device);
        fused =
            new Slot(
                new ParamSpec(
                    "(trainable parameters)", flatWeight.shape(), null, ParamSpec.Kind.WEIGHT),
                flatWeight,
                flatGrad);
        zeroing(flatGrad);
      }
      long offset = 0;
      for (ParamSpec spec : specs) {
        Tensor w;
        Tensor g;
        boolean viewed = inFused.test(spec.name());
        if (viewed) {
          w = flatWeight.view(offset, spec.shape());
          g = flatGrad.view(offset, spec.shape());
          offset += spec.shape().size();
        } else {
          w = Tensor.zeros(spec.shape(), device);
          g = Tensor.zeros(spec.shape(), device);
        }
        Slot slot = viewed ? new Slot(spec, w, g, fused, offset - spec.shape().size()) : null;
        if (!viewed) {
          slot = new Slot(spec, w, g);
          if (!frozen.test(spec.name())) {
            ownSlots.add(slot);
            zeroing(g);
          }
        }
        slots.put(spec.name(), slot);
        if (!frozen.test(spec.name()) && reordered.contains(spec.name())) {
          inferenceCopies.put(spec.name(), new ArrayCopy(w));
        }
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  /** Adds the operator that zeroes {@code grad} to those {@link #zeroGrads()} runs. */
  private void zeroing(Tensor grad) {
    zeroGrad.add(
        new PreparedOp("_zeros", new NDArrayHandle[0], new NDArrayHandle[] {grad.handle()}));
    zeroGradValues.add(new String[] {grad.shape().toMxnet()});
  }

  /**
   * What optimizers update: the trainable parameters in one contiguous array (each parameter's own
   * arrays are views of it), so one fused update operator per step updates them all, where one per
   * parameter would pay MXNet's dispatch cost again and again; then, one by one, the trainable
   * parameters with arrays of their own (see the class comment), usually none. Element-wise
   * optimizers give the same result either way. Empty when every parameter is frozen.
   */
  public List<Slot> fusedSlots() {
    List<Slot> out = new ArrayList<>();
    if (fused != null) {
      out.add(fused);
    }
    out.addAll(ownSlots);
    return List.copyOf(out);
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

  /** The CPU context ({@code cpu(device)}) every array lives on. */
  public int device() {
    return device;
  }

  /** The model's recurrent states (see {@link StateStore}). */
  public StateStore states() {
    return states;
  }

  /** The thread contract of the model these arrays belong to (see {@link CallGuard}). */
  public CallGuard guard() {
    return guard;
  }

  /**
   * The array an inference-mode executor binds for parameter {@code name}: its inference copy when
   * it has one, otherwise its weight array. Call {@link #refreshInferenceCopies()} before each
   * inference pass.
   */
  public Tensor inferenceWeight(String name) {
    ArrayCopy copy = inferenceCopies.get(name);
    return copy != null ? copy.copy() : slots.get(name).weight();
  }

  /** Whether parameter {@code name} has an inference copy (see the class comment). */
  public boolean hasInferenceCopy(String name) {
    return inferenceCopies.containsKey(name);
  }

  /**
   * Records that weights may have changed (an update, a write, a load): the next inference pass
   * refreshes the inference copies first. Every path that writes weights must call it.
   */
  public void weightsChanged() {
    weightsVersion++;
  }

  /**
   * Brings the inference copies up to date with the weights if they changed since the last refresh:
   * one queued MXNet copy per copy, ordered by MXNet's engine after the writes before it and before
   * the pass after it.
   */
  public void refreshInferenceCopies() {
    if (copiesVersion != weightsVersion) {
      inferenceCopies.values().forEach(ArrayCopy::refresh);
      copiesVersion = weightsVersion;
    }
  }

  /**
   * Zeroes every gradient: one operator over the fused gradient array. Frozen parameters are bound
   * without gradients, so theirs stay zero.
   */
  public void zeroGrads() {
    for (int i = 0; i < zeroGrad.size(); i++) {
      zeroGrad.get(i).run(ZERO_KEYS, zeroGradValues.get(i));
    }
    gradients = Gradients.ZERO;
  }

  /**
   * Whether every update first checks that the gradients are finite ({@link #checkBeforeUpdate});
   * on by default.
   */
  public boolean checksGradients() {
    return checkGradients;
  }

  /** Turns the per-update gradient check on or off (see {@link #checkBeforeUpdate}). */
  public void checkGradients(boolean on) {
    this.checkGradients = on;
  }

  /** How many updates have been applied to these parameters. */
  public long updates() {
    return updates;
  }

  /**
   * Called by every update path before its optimizer step: unless the check is off, waits for the
   * gradients and makes sure every one is finite, so that a NaN or infinity never reaches the
   * weights. Then the caller steps and calls {@link #updateApplied()}.
   *
   * @throws NonFiniteException naming the parameter and element, the update's number and the model;
   *     the parameters are left as they were before this update
   */
  public void checkBeforeUpdate(String model) {
    NonFiniteException bad = gradientProblem(model, updates + 1, false);
    if (bad != null) {
      throw bad;
    }
  }

  /**
   * Unless the check is off, waits for the gradients' pending writes (not for the update queued
   * after them, see {@link dev.kiln.runtime.mxnet.PriorityWait}) and tests every one: the error
   * that update number {@code update} was not applied, naming the first NaN or infinity, or null
   * when all are finite. {@code atNextCall}: the model's next call makes the check of an update an
   * earlier call applied ({@link NonFiniteException#previousCall()}), and the message says so.
   */
  public NonFiniteException gradientProblem(String model, long update, boolean atNextCall) {
    List<Slot> stepped = fusedSlots();
    if (!checkGradients || stepped.isEmpty()) {
      return null;
    }
    if (gradientCheck == null) {
      gradientCheck = new FiniteCheck(stepped.stream().map(Slot::grad).toList());
    }
    // A check made by the next call finds the gradients long written: MXNet's own wait then
    // returns at once, where the priority wait would still queue an operation and wake a thread.
    int array = gradientCheck.firstNonFinite(!atNextCall);
    if (array < 0) {
      return null;
    }
    Slot bad = stepped.get(array);
    float[] g = bad.grad().toFloatArray();
    int at = FiniteCheck.firstNonFinite(g);
    String where = bad.name() + bad.spec().shape() + " element " + at;
    if (bad == fused) {
      where = "element " + at;
      for (Slot s : slots.values()) {
        if (s.fused() != null && at >= s.offset() && at < s.offset() + s.spec().shape().size()) {
          where = s.name() + s.spec().shape() + " element " + (at - s.offset());
        }
      }
    }
    return new NonFiniteException(
        model
            + ": update "
            + update
            + " not applied"
            + (atNextCall ? AT_NEXT_CALL : "")
            + ": the gradient of "
            + where
            + " is "
            + g[at]
            + "; the parameters are those from before it. "
            + "A diverging loss, an exploding gradient or inputs too large for float32: try a "
            + "smaller learning rate, an optimizer with clipGlobalNorm, or scaled inputs"
            + (gradients == Gradients.ACCUMULATED
                ? ". The gradients are kept for inspection; zeroGradients() discards them (another"
                    + " update would refuse them again)"
                : ""),
        atNextCall);
  }

  /**
   * Queues a copy of the fused weights (the arrays an optimizer step writes), to be put back by
   * {@link #restoreWeights()} if the step turns out to have applied a bad gradient. The copy is
   * kept between steps: it takes as much memory as the weights. Returns each fused slot's copy,
   * which holds the slot's weights as they are now until the next call (the step may read it).
   */
  public Map<Slot, Tensor> keepWeights() {
    List<Slot> stepped = fusedSlots();
    if (stepped.isEmpty()) {
      return Map.of();
    }
    if (keptWeights == null) {
      List<ArrayCopy> copies = new ArrayList<>();
      try {
        for (Slot s : stepped) {
          copies.add(new ArrayCopy(s.weight()));
        }
      } catch (RuntimeException e) {
        copies.forEach(ArrayCopy::close);
        throw e;
      }
      keptWeights = List.copyOf(copies);
    }
    keptWeights.forEach(ArrayCopy::refresh);
    Map<Slot, Tensor> copies = new IdentityHashMap<>();
    for (int i = 0; i < stepped.size(); i++) {
      copies.put(stepped.get(i), keptWeights.get(i).copy());
    }
    return Collections.unmodifiableMap(copies);
  }

  /**
   * Called before every training-mode forward pass, which writes the auxiliary states (batch norm's
   * moving statistics): unless the gradient check is off or there are none, the first such pass
   * since the last applied update queues a copy of them, which {@link #restoreWeights()} puts back
   * with the weights if that update is refused. A refused update then leaves the model as it was
   * before the passes that computed its gradients, also when several forward passes (run by hand)
   * accumulated them.
   */
  public void trainingForward() {
    if (!checkGradients || auxSlots.isEmpty() || auxKeptFor == updates + 1) {
      return;
    }
    if (keptAux.isEmpty()) {
      try {
        for (AuxSlot a : auxSlots.values()) {
          keptAux.add(new ArrayCopy(a.value()));
        }
      } catch (RuntimeException e) {
        keptAux.forEach(ArrayCopy::close);
        keptAux.clear();
        throw e;
      }
    }
    keptAux.forEach(ArrayCopy::refresh);
    auxKeptFor = updates + 1;
  }

  /**
   * Puts back the weights {@link #keepWeights()} copied last (after the writes queued since), and
   * the auxiliary states if {@link #trainingForward()} copied them for this update, and takes back
   * the update counted since ({@link #updateApplied()}).
   */
  public void restoreWeights() {
    if (keptWeights == null) {
      throw new IllegalStateException("no weights were kept");
    }
    keptWeights.forEach(ArrayCopy::restoreSource);
    if (auxKeptFor == updates) {
      keptAux.forEach(ArrayCopy::restoreSource);
    }
    auxKeptFor = -1;
    updates--;
    weightsChanged();
  }

  /** Records that an optimizer step changed the weights: counts it and marks the copies stale. */
  public void updateApplied() {
    updates++;
    weightsChanged();
  }

  /** What the gradient arrays hold now. */
  public Gradients gradients() {
    return gradients;
  }

  /**
   * Prepares the gradient arrays for a {@code backward} pass that adds into them: zeroes them first
   * if they hold consumed values. Then call {@link #gradientsAccumulated()}.
   */
  public void beforeAccumulating() {
    if (gradients == Gradients.CONSUMED) {
      zeroGrads();
    }
  }

  /** Records that a {@code backward} pass added into the gradient arrays. */
  public void gradientsAccumulated() {
    gradients = Gradients.ACCUMULATED;
  }

  /**
   * Records that the gradient arrays hold values an update has applied (a training step that
   * overwrote them and stepped): the next accumulation starts from zero.
   */
  public void gradientsConsumed() {
    gradients = Gradients.CONSUMED;
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
    if (gradientCheck != null) {
      gradientCheck.close();
      gradientCheck = null;
    }
    if (keptWeights != null) {
      keptWeights.forEach(ArrayCopy::close);
      keptWeights = null;
    }
    keptAux.forEach(ArrayCopy::close);
    keptAux.clear();
    states.close();
    inferenceCopies.values().forEach(ArrayCopy::close);
    inferenceCopies.clear();
    if (flatWeight != null) {
      flatWeight.close();
      flatGrad.close();
    }
    fused = null;
    ownSlots.clear();
  }
}
