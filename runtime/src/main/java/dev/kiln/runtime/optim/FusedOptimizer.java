package dev.kiln.runtime.optim;

import dev.kiln.runtime.exec.ArrayCopy;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * An optimizer made of one MXNet fused update operator per parameter ({@code sgd_update}, {@code
 * sgd_mom_update}, {@code nag_mom_update}, {@code adam_update}, {@code _adamw_update}), run in
 * place on the model's shared weight arrays.
 *
 * <p>What every such optimizer shares:
 *
 * <ul>
 *   <li>a {@linkplain LearningRate learning-rate schedule} and a step count: step {@code t}
 *       (counted from 0) runs at {@code schedule().rate(t)};
 *   <li>gradient rescaling ({@code rescaleGrad}, e.g. {@code 1 / batch}) applied first;
 *   <li>optional global-norm clipping: when the 2-norm of all rescaled gradients together exceeds
 *       {@code clipGlobalNorm}, every gradient is scaled down so that it equals it;
 *   <li>optional element-wise clipping of each rescaled gradient to {@code [-clipGradient,
 *       clipGradient]} (MXNet's {@code clip_gradient});
 *   <li>weight decay, whose exact form is each optimizer's (see its class comment);
 *   <li>per-parameter state (momentum, first and second moments) created zero-filled on the
 *       parameter's first step, kept across steps, and freed by {@link #close()}.
 * </ul>
 *
 * <p>The prepared operator calls and state are keyed by the parameter slots themselves, so an
 * optimizer is meant for the parameters of one model. It is not thread-safe.
 */
public abstract sealed class FusedOptimizer implements Optimizer permits Sgd, MomentOptimizer {
  /**
   * What an optimizer keeps for one parameter: its state arrays (shown by {@link #state}), any
   * scratch arrays, its prepared update, an optional prepared follow-up run without attributes
   * (e.g. a copy out of a scratch array), and an optional faster way to take a step that may
   * decline one (then the prepared update runs).
   */
  record State(
      List<Tensor> tensors,
      List<Tensor> scratch,
      PreparedOp update,
      PreparedOp followUp,
      FastStep fast) {
    State(List<Tensor> tensors, PreparedOp update) {
      this(tensors, List.of(), update, null, null);
    }

    State(List<Tensor> tensors, List<Tensor> scratch, PreparedOp update, PreparedOp followUp) {
      this(tensors, scratch, update, followUp, null);
    }

    void run(String[] keys, String[] vals, float[] values, Tensor keptWeight) {
      if (fast != null && fast.tryStep(values, keptWeight)) {
        return;
      }
      update.run(keys, vals);
      if (followUp != null) {
        followUp.run(NO_STRINGS, NO_STRINGS);
      }
    }

    void close() {
      if (fast != null) {
        fast.close();
      }
      tensors.forEach(Tensor::close);
      scratch.forEach(Tensor::close);
    }
  }

  /**
   * Another way to run one parameter's update, giving exactly the prepared operator's result where
   * it takes a step.
   */
  interface FastStep {
    /**
     * Queues this step's update if it can, given the attribute values of the step (in the
     * optimizer's key order); false: it did nothing and the prepared operator must run. {@code
     * keptWeight} is null, or an array a copy queued before this step fills with the parameter's
     * weights as they are before it ({@link ParameterStore#keepWeights()}), which the step may read
     * in place of the weights.
     */
    boolean tryStep(float[] values, Tensor keptWeight);

    /** Frees what it holds. */
    void close();
  }

  private static final String[] NO_STRINGS = {};

  private final String name;
  private final String[] keys;
  private final float weightDecay;
  private final float clipGradient;
  private final float clipGlobalNorm;
  private final Map<ParameterStore.Slot, State> states = new IdentityHashMap<>();
  private final Map<ParameterStore.Slot, List<Tensor>> stateViews = new IdentityHashMap<>();
  private final float[] values;
  private float[] lastValues;
  private String[] lastStrings;
  private LearningRate schedule;
  private float rescaleGrad;
  private GlobalNorm globalNorm;
  private final Map<Tensor, ArrayCopy> backups = new IdentityHashMap<>();
  private long steps;
  private boolean closed;

  FusedOptimizer(String name, String[] keys, Builder<?> b) {
    this.name = name;
    this.keys = keys.clone();
    this.values = new float[keys.length];
    this.schedule = b.resolveSchedule(name);
    this.weightDecay = b.weightDecay;
    this.clipGradient = b.clipGradient;
    this.clipGlobalNorm = b.clipGlobalNorm;
    this.rescaleGrad = b.rescaleGrad;
  }

  /**
   * Creates the state and prepared update of one parameter. Runs once per parameter, on its first
   * step; state arrays it creates must be zero-filled and are freed by {@link #close()}.
   */
  abstract State newState(ParameterStore.Slot slot);

  /**
   * Fills {@code out} (in the order of the keys given to the constructor) with the attribute values
   * of step {@code t} (1 for the first step) at learning rate {@code lr} with gradients scaled by
   * {@code rescale}.
   */
  abstract void values(float[] out, float lr, float rescale, long t);

  /** Frees anything a subclass holds beyond the per-parameter state. */
  void closeExtra() {}

  /** Applies one update step to every parameter in {@code params}; gradients are not cleared. */
  @Override
  public final void step(List<ParameterStore.Slot> params) {
    step(params, Map.of());
  }

  /**
   * As {@link #step(List)}; {@code keptWeights} maps parameters to copies of their weights queued
   * before this step ({@link ParameterStore#keepWeights()}), which a step may read instead of the
   * weights it overwrites.
   */
  private void step(List<ParameterStore.Slot> params, Map<ParameterStore.Slot, Tensor> kept) {
    checkOpen();
    checkAlive(params);
    float rescale = rescaleGrad;
    if (clipGlobalNorm > 0 && !params.isEmpty()) {
      rescale = (float) (rescale * globalNormScale(params, rescale));
    }
    float lr = schedule.rate(steps);
    if (!(lr >= 0) || !Float.isFinite(lr)) {
      throw new IllegalStateException(
          name
              + ": schedule "
              + schedule
              + " gave learning rate "
              + lr
              + " at step "
              + steps
              + "; a learning rate must be >= 0 and finite");
    }
    values(values, lr, rescale, steps + 1);
    String[] vals = strings(values);
    for (ParameterStore.Slot p : params) {
      State s = states.get(p);
      if (s == null) {
        s = newState(p);
        states.put(p, s);
      }
      s.run(keys, vals, values, kept.get(p));
    }
    steps++;
  }

  /**
   * Like {@link #step}, but first queues a copy of the optimizer's state for each parameter
   * (momentum, moments), so that {@link Undo#undo()} can take the step back until the next one. The
   * weights the step writes are the caller's to keep ({@link ParameterStore#keepWeights()}). The
   * copies run on MXNet's engine before the step, so this returns as soon as {@link #step} would: a
   * caller can check the gradients while MXNet updates (see {@link CheckedStep}). They are kept
   * between steps, take as much memory as the state, and are freed by {@link #close()}.
   */
  public final Undo stepUndoably(List<ParameterStore.Slot> params) {
    return stepUndoably(params, Map.of());
  }

  /**
   * As {@link #stepUndoably(List)}, for weights the caller has just kept: {@code keptWeights} maps
   * each parameter whose weights were copied before this step to the copy ({@link
   * ParameterStore#keepWeights()}). A step that writes its result through a scratch array reads the
   * copy instead and writes the weights directly (plain SGD's {@code ScaledAddStep}: one pass over
   * the weights fewer).
   */
  public final Undo stepUndoably(
      List<ParameterStore.Slot> params, Map<ParameterStore.Slot, Tensor> keptWeights) {
    checkOpen();
    checkAlive(params);
    List<ArrayCopy> saved = new ArrayList<>();
    List<ParameterStore.Slot> stateless = new ArrayList<>();
    for (ParameterStore.Slot p : params) {
      State s = states.get(p);
      if (s == null) {
        stateless.add(p);
      } else {
        for (Tensor t : s.tensors()) {
          saved.add(backup(t));
        }
      }
    }
    saved.forEach(ArrayCopy::refresh);
    step(params, keptWeights);
    return new Undo(List.copyOf(saved), List.copyOf(stateless));
  }

  /** The kept copy of state array {@code target}, made on first use. */
  private ArrayCopy backup(Tensor target) {
    return backups.computeIfAbsent(target, ArrayCopy::new);
  }

  /** Takes back the optimizer's side of one {@link #stepUndoably} step. */
  public final class Undo {
    private final List<ArrayCopy> saved;
    private final List<ParameterStore.Slot> stateless;
    private final long stepsAfter;
    private boolean done;

    private Undo(List<ArrayCopy> saved, List<ParameterStore.Slot> stateless) {
      this.saved = saved;
      this.stateless = stateless;
      this.stepsAfter = steps;
    }

    /**
     * Puts back every state array as it was before the step (after the step's writes), zeroes the
     * state the step created and counts the step as not taken. A second call does nothing, and so
     * does a call after {@link #close()}, which freed the state.
     *
     * @throws IllegalStateException if the optimizer has stepped since: its state holds that step
     */
    public void undo() {
      if (done || closed) {
        return;
      }
      done = true;
      if (steps != stepsAfter) {
        throw new IllegalStateException(
            name
                + ": cannot take back step "
                + stepsAfter
                + ": the optimizer has taken "
                + (steps - stepsAfter)
                + " more since");
      }
      saved.forEach(ArrayCopy::restoreSource);
      for (ParameterStore.Slot p : stateless) {
        State s = states.get(p);
        if (s != null) {
          s.tensors().forEach(t -> t.fill(0f));
        }
      }
      steps--;
    }
  }

  private void checkAlive(List<ParameterStore.Slot> params) {
    for (ParameterStore.Slot p : params) {
      // Prepared calls hold raw handles: refuse arrays freed since, before touching any.
      try {
        p.weight().handle();
        p.grad().handle();
      } catch (IllegalStateException e) {
        throw new IllegalStateException(
            name + ": parameter " + p.name() + " has been freed (is its model closed?)", e);
      }
    }
  }

  /** How many steps this optimizer has taken. */
  public long stepCount() {
    return steps;
  }

  /** The learning-rate schedule. */
  public LearningRate schedule() {
    return schedule;
  }

  /** The learning rate the next step will use. */
  public float learningRate() {
    return schedule.rate(steps);
  }

  /** Replaces the schedule by the constant rate {@code lr} from the next step on. */
  public void learningRate(float lr) {
    this.schedule = LearningRate.constant(lr);
  }

  /** Replaces the schedule from the next step on; the step count carries on. */
  public void schedule(LearningRate schedule) {
    if (schedule == null) {
      throw new IllegalArgumentException("schedule must not be null");
    }
    this.schedule = schedule;
  }

  /** The factor every gradient is scaled by before the step. */
  public float rescaleGrad() {
    return rescaleGrad;
  }

  /** Scales every gradient by {@code scale} before the step (e.g. {@code 1 / batch}). */
  public void rescaleGrad(float scale) {
    this.rescaleGrad = checkRescale(scale);
  }

  /** The weight-decay coefficient. */
  public float weightDecay() {
    return weightDecay;
  }

  /** The element-wise clipping bound, or -1 (MXNet's "off") when there is none. */
  float clipGradient() {
    return clipGradient;
  }

  /** The bound of the gradients' global norm, or 0 when there is none. */
  public float clipGlobalNorm() {
    return clipGlobalNorm;
  }

  /**
   * The state arrays of {@code slot} in the optimizer's order (e.g. {@code [momentum]} or {@code
   * [mean, var]}), empty before the parameter's first step or when the optimizer keeps none. For
   * one real parameter of a model, whose arrays are views of the fused arrays the optimizer steps
   * ({@link ParameterStore.Slot#fused()}), these are views of the fused state at that parameter's
   * offset. They stay owned by the optimizer.
   */
  public List<Tensor> state(ParameterStore.Slot slot) {
    checkOpen();
    State s = states.get(slot);
    if (s != null) {
      return s.tensors();
    }
    State fused = slot.fused() == null ? null : states.get(slot.fused());
    if (fused == null || fused.tensors().isEmpty()) {
      return List.of();
    }
    List<Tensor> views = stateViews.get(slot);
    if (views == null) {
      List<Tensor> made = new ArrayList<>();
      try {
        for (Tensor t : fused.tensors()) {
          made.add(t.view(slot.offset(), slot.spec().shape()));
        }
      } catch (RuntimeException e) {
        made.forEach(Tensor::close);
        throw e;
      }
      views = List.copyOf(made);
      stateViews.put(slot, views);
    }
    return views;
  }

  /** Frees every state array. Later steps throw {@link IllegalStateException}. Idempotent. */
  @Override
  public final void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (List<Tensor> views : stateViews.values()) {
      views.forEach(Tensor::close);
    }
    stateViews.clear();
    for (State s : states.values()) {
      s.close();
    }
    states.clear();
    backups.values().forEach(ArrayCopy::close);
    backups.clear();
    if (globalNorm != null) {
      globalNorm.close();
      globalNorm = null;
    }
    closeExtra();
  }

  @Override
  public String toString() {
    return name + "(" + schedule + ", step " + steps + ")";
  }

  /** Zero-filled arrays shaped like {@code slot}'s weight, freed again if any one fails. */
  static List<Tensor> zerosLike(ParameterStore.Slot slot, int count) {
    List<Tensor> made = new ArrayList<>(count);
    try {
      for (int i = 0; i < count; i++) {
        made.add(Tensor.zeros(slot.spec().shape(), slot.weight().device()));
      }
    } catch (RuntimeException e) {
      made.forEach(Tensor::close);
      throw e;
    }
    return List.copyOf(made);
  }

  /** A prepared in-place update {@code op(weight, grad, state..., more...) -> weight}. */
  static PreparedOp inPlace(
      String op, ParameterStore.Slot slot, List<Tensor> state, NDArrayHandle... more) {
    return update(op, slot, state, slot.weight(), more);
  }

  /** A prepared update {@code op(weight, grad, state..., more...) -> out}. */
  static PreparedOp update(
      String op, ParameterStore.Slot slot, List<Tensor> state, Tensor out, NDArrayHandle... more) {
    NDArrayHandle[] inputs = new NDArrayHandle[2 + state.size() + more.length];
    inputs[0] = slot.weight().handle();
    inputs[1] = slot.grad().handle();
    for (int i = 0; i < state.size(); i++) {
      inputs[2 + i] = state.get(i).handle();
    }
    System.arraycopy(more, 0, inputs, 2 + state.size(), more.length);
    return new PreparedOp(op, inputs, new NDArrayHandle[] {out.handle()});
  }

  private String[] strings(float[] current) {
    if (lastValues == null || !Arrays.equals(current, lastValues)) {
      lastValues = current.clone();
      lastStrings = new String[current.length];
      for (int i = 0; i < current.length; i++) {
        lastStrings[i] = Float.toString(current[i]);
      }
    }
    return lastStrings;
  }

  private double globalNormScale(List<ParameterStore.Slot> params, float rescale) {
    if (globalNorm == null || !globalNorm.covers(params)) {
      if (globalNorm != null) {
        globalNorm.close();
      }
      globalNorm = new GlobalNorm(params);
    }
    double norm = rescale * Math.sqrt(globalNorm.sumOfSquares());
    if (!Double.isFinite(norm)) {
      throw new IllegalStateException(
          name
              + ": the global gradient norm is "
              + norm
              + " at step "
              + steps
              + "; no parameter was updated");
    }
    return norm > clipGlobalNorm ? clipGlobalNorm / norm : 1.0;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException(name + " is closed");
    }
  }

  static float checkRescale(float scale) {
    if (!(scale > 0) || !Float.isFinite(scale)) {
      throw new IllegalArgumentException(
          "gradient rescale factor must be positive and finite, " + "got " + scale);
    }
    return scale;
  }

  static float checkUnitInterval(String what, float value) {
    if (!(value >= 0 && value < 1)) {
      throw new IllegalArgumentException(what + " must be in [0, 1), got " + value);
    }
    return value;
  }

  /**
   * The sum of squares of every gradient of one parameter list, with MXNet's {@code multi_sum_sq}
   * in one call.
   */
  private static final class GlobalNorm implements AutoCloseable {
    private static final String[] KEYS = {"num_arrays"};

    private final ParameterStore.Slot[] slots;
    private final Tensor sums;
    private final PreparedOp op;
    private final String[] vals;

    GlobalNorm(List<ParameterStore.Slot> params) {
      this.slots = params.toArray(new ParameterStore.Slot[0]);
      NDArrayHandle[] grads = new NDArrayHandle[slots.length];
      for (int i = 0; i < slots.length; i++) {
        grads[i] = slots[i].grad().handle();
      }
      this.sums = Tensor.zeros(Shape.of(slots.length), slots[0].grad().device());
      try {
        this.op = new PreparedOp("multi_sum_sq", grads, new NDArrayHandle[] {sums.handle()});
      } catch (RuntimeException e) {
        sums.close();
        throw e;
      }
      this.vals = new String[] {Integer.toString(slots.length)};
    }

    boolean covers(List<ParameterStore.Slot> params) {
      if (params.size() != slots.length) {
        return false;
      }
      for (int i = 0; i < slots.length; i++) {
        if (params.get(i) != slots[i]) {
          return false;
        }
      }
      return true;
    }

    double sumOfSquares() {
      op.run(KEYS, vals);
      double total = 0;
      for (float s : sums.toFloatArray()) {
        total += s;
      }
      return total;
    }

    @Override
    public void close() {
      sums.close();
    }
  }

  /**
   * What every fused optimizer's builder sets. Each setter checks its value at once, so a bad
   * hyper-parameter fails on the line that gives it.
   *
   * @param <B> the concrete builder, returned by every setter
   */
  public abstract static sealed class Builder<B extends Builder<B>>
      permits Sgd.Builder, MomentsBuilder {
    private final float defaultRate;
    private float learningRate = Float.NaN;
    private LearningRate schedule;
    float weightDecay;
    float clipGradient = -1f;
    float clipGlobalNorm;
    float rescaleGrad = 1f;

    /** A builder whose learning rate is {@code defaultRate} unless set; NaN: none. */
    Builder(float defaultRate) {
      this.defaultRate = defaultRate;
    }

    abstract B self();

    /**
     * A constant learning rate. Given together with {@link #schedule}, it must equal the schedule's
     * {@linkplain LearningRate#base() base rate}.
     */
    public B learningRate(float lr) {
      Schedules.checkRate("learning rate", lr);
      this.learningRate = lr;
      return self();
    }

    /** A learning-rate schedule (see {@link LearningRate}). */
    public B schedule(LearningRate schedule) {
      if (schedule == null) {
        throw new IllegalArgumentException("schedule must not be null");
      }
      this.schedule = schedule;
      return self();
    }

    /** The weight-decay coefficient, {@code >= 0} (0 by default). */
    public B weightDecay(float wd) {
      if (!(wd >= 0) || !Float.isFinite(wd)) {
        throw new IllegalArgumentException("weight decay must be >= 0 and finite, got " + wd);
      }
      this.weightDecay = wd;
      return self();
    }

    /** Clips every rescaled gradient element to {@code [-bound, bound]}; off by default. */
    public B clipGradient(float bound) {
      if (!(bound > 0) || !Float.isFinite(bound)) {
        throw new IllegalArgumentException(
            "gradient clipping bound must be positive and " + "finite, got " + bound);
      }
      this.clipGradient = bound;
      return self();
    }

    /**
     * Scales all gradients down together whenever their joint 2-norm (after rescaling) exceeds
     * {@code maxNorm}; off by default. Costs one MXNet call and one wait per step.
     */
    public B clipGlobalNorm(float maxNorm) {
      if (!(maxNorm > 0) || !Float.isFinite(maxNorm)) {
        throw new IllegalArgumentException(
            "global gradient norm bound must be positive and " + "finite, got " + maxNorm);
      }
      this.clipGlobalNorm = maxNorm;
      return self();
    }

    /** Scales every gradient by {@code scale} first (e.g. {@code 1 / batch}); 1 by default. */
    public B rescaleGrad(float scale) {
      this.rescaleGrad = checkRescale(scale);
      return self();
    }

    /** Builds the optimizer. */
    public abstract FusedOptimizer build();

    LearningRate resolveSchedule(String optimizer) {
      if (schedule != null) {
        if (!Float.isNaN(learningRate) && schedule.base() != learningRate) {
          throw new IllegalArgumentException(
              optimizer
                  + ": learningRate("
                  + learningRate
                  + ") disagrees with the base rate "
                  + schedule.base()
                  + " of schedule "
                  + schedule
                  + "; give one or the other");
        }
        return schedule;
      }
      if (!Float.isNaN(learningRate)) {
        return LearningRate.constant(learningRate);
      }
      if (Float.isNaN(defaultRate)) {
        throw new IllegalArgumentException(
            optimizer
                + " needs a learning rate: call "
                + "learningRate(...) or schedule(...) on its builder");
      }
      return LearningRate.constant(defaultRate);
    }
  }

  /**
   * What Adam's and AdamW's builders add: the moments' decay rates and ε, each checked as it is
   * set.
   *
   * @param <B> the concrete builder, returned by every setter
   */
  public abstract static sealed class MomentsBuilder<B extends MomentsBuilder<B>> extends Builder<B>
      permits Adam.Builder, AdamW.Builder {
    float beta1 = 0.9f;
    float beta2 = 0.999f;
    float epsilon = 1e-8f;

    MomentsBuilder(float defaultRate) {
      super(defaultRate);
    }

    /** The first-moment decay rate, in {@code [0, 1)}; 0.9 by default. */
    public B beta1(float beta1) {
      this.beta1 = checkUnitInterval("beta1", beta1);
      return self();
    }

    /** The second-moment decay rate, in {@code [0, 1)}; 0.999 by default. */
    public B beta2(float beta2) {
      this.beta2 = checkUnitInterval("beta2", beta2);
      return self();
    }

    /** The ε added to {@code sqrt(v)}, positive and finite; 1e-8 by default. */
    public B epsilon(float epsilon) {
      if (!(epsilon > 0) || !Float.isFinite(epsilon)) {
        throw new IllegalArgumentException("epsilon must be positive and finite, got " + epsilon);
      }
      this.epsilon = epsilon;
      return self();
    }
  }
}
