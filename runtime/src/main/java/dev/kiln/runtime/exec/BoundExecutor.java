package dev.kiln.runtime.exec;

import dev.kiln.runtime.graph.AuxSpec;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.graph.StateSpec;
import dev.kiln.runtime.mxnet.ExecutorHandle;
import dev.kiln.runtime.mxnet.HandleArray;
import dev.kiln.runtime.mxnet.MxException;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import dev.kiln.runtime.mxnet.WriteFence;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A graph bound to one set of input shapes: the arrays Kiln owns for those shapes and the MXNet
 * executors that run over them.
 *
 * <p>It owns its input arrays, its input-gradient arrays, its head-gradient arrays, its label
 * arrays and the output handles MXNet gave it; the parameter and gradient arrays belong to the
 * model's {@link ParameterStore} and are shared with every other executor of the model, as are the
 * auxiliary states (bound as MXNet's {@code aux_states}). Parameters of {@code @Frozen} nodes
 * ({@link Graph#isFrozen}) are bound without a gradient.
 *
 * <p>There are two MXNet executors over the same input, gradient and label arrays: one for
 * training-mode passes, binding the store's parameter views, made at construction; and one for
 * inference-mode passes, binding each weight that oneDNN may rewrite in place to its inference copy
 * ({@link ParameterStore#inferenceWeight}), made on the first inference pass. Both are bound with
 * gradients, which keeps MXNet from applying its inference-only oneDNN graph fusions: those cache
 * the weights at their first pass and would not see later updates. Outputs are those of the
 * executor that ran the latest forward pass.
 */
public final class BoundExecutor implements AutoCloseable {
  /** MXNet's {@code grad_req} codes. */
  public enum GradReq {
    /** No gradient. */
    NULL(0),
    /** Overwrite the gradient array. */
    WRITE(1),
    /** Add into the gradient array (gradients accumulate until zeroed). */
    ADD(3);

    final int code;

    GradReq(int code) {
      this.code = code;
    }
  }

  /** One MXNet executor and the output arrays it owns. */
  private static final class Binding {
    final ExecutorHandle exec;
    final Tensor[] outputs;

    Binding(ExecutorHandle exec, Tensor[] outputs) {
      this.exec = exec;
      this.outputs = outputs;
    }

    void close() {
      exec.close();
      closeAll(outputs);
    }
  }

  private final Graph graph;
  private final ParameterStore params;
  private final GradReq paramReq;
  private final GradReq inputReq;
  private final List<Shape> inputShapes;
  private final Tensor[] inputs;
  private final Tensor[] inputGrads;
  private final Tensor[] headGrads;
  private final HandleArray headHandles;
  private final Tensor[] labels;
  private final boolean carryState;
  private final Map<String, Integer> stateBatch = new HashMap<>();
  private final Map<Binding, List<PreparedOp>> carries = new HashMap<>();
  private WideAuxStates wideAux;
  private Binding training;
  private Binding inference;
  private FiniteCheck inputCheck;
  private Binding last;
  private boolean lastForwardTrained;

  /**
   * The input and label arrays, with the fence {@link #fenceInputs} queues (on or off as {@link
   * WriteFence#enabled()} says when the executor is bound).
   */
  private final FencedArrays loads;

  private boolean closed;

  /**
   * Binds {@code graph} for {@code inputShapes} (complete, one per graph input, in order) over the
   * shared {@code params}; a classifier graph's label arrays get {@code labelShapes}, one per
   * {@link Graph#labels()} entry.
   */
  public BoundExecutor(
      Graph graph,
      List<Shape> inputShapes,
      List<Shape> labelShapes,
      ParameterStore params,
      GradReq paramReq,
      GradReq inputReq) {
    this(graph, inputShapes, labelShapes, params, paramReq, inputReq, true);
  }

  /**
   * As the other constructor; with {@code carryState} off, stateful recurrent layers start every
   * pass from zeros too (a classifier's training batches are independent).
   */
  public BoundExecutor(
      Graph graph,
      List<Shape> inputShapes,
      List<Shape> labelShapes,
      ParameterStore params,
      GradReq paramReq,
      GradReq inputReq,
      boolean carryState) {
    this.carryState = carryState;
    this.graph = graph;
    this.params = params;
    this.paramReq = paramReq;
    this.inputReq = inputReq;
    this.inputShapes = List.copyOf(inputShapes);
    List<InputSpec> specs = graph.inputs();
    this.inputs = new Tensor[specs.size()];
    this.inputGrads = new Tensor[specs.size()];
    this.labels = new Tensor[graph.labels().size()];
    graph.checkReshapes(inputShapes);
    if (!graph.states().isEmpty()) {
      stateBatches(inputShapes);
    }
    Tensor[] heads = null;
    try {
      for (int i = 0; i < inputs.length; i++) {
        inputs[i] = Tensor.zeros(inputShapes.get(i), params.device());
        if (inputReq != GradReq.NULL) {
          inputGrads[i] = Tensor.zeros(inputShapes.get(i), params.device());
        }
      }
      for (int i = 0; i < labels.length; i++) {
        labels[i] = Tensor.zeros(labelShapes.get(i), params.device());
      }
      Tensor[] loaded = Arrays.copyOf(inputs, inputs.length + labels.length);
      System.arraycopy(labels, 0, loaded, inputs.length, labels.length);
      loads = new FencedArrays(loaded);
      training = bind(false);
      heads = new Tensor[graph.outputs().size()];
      for (int i = 0; i < heads.length; i++) {
        heads[i] = Tensor.zeros(training.outputs[i].shape(), params.device());
      }
    } catch (RuntimeException e) {
      closeAll(inputs);
      closeAll(inputGrads);
      closeAll(labels);
      closeAll(heads);
      if (training != null) {
        training.close();
      }
      if (wideAux != null) {
        wideAux.close();
      }
      throw e;
    }
    this.headGrads = heads;
    NDArrayHandle[] handles = new NDArrayHandle[heads.length];
    for (int i = 0; i < heads.length; i++) {
      handles[i] = heads[i].handle();
    }
    this.headHandles = HandleArray.of(handles);
  }

  /**
   * Binds one MXNet executor over this object's arrays; {@code forInference} binds the parameters'
   * inference arrays instead of their views.
   */
  private Binding bind(boolean forInference) {
    List<String> args = graph.arguments();
    NDArrayHandle[] argHandles = new NDArrayHandle[args.size()];
    NDArrayHandle[] gradHandles = new NDArrayHandle[args.size()];
    int[] reqs = new int[args.size()];
    // An executor bound without any gradient lets MXNet apply its inference-only oneDNN fusions,
    // which cache weights (see the class comment); one input gradient keeps them off.
    GradReq inputGradReq =
        inputReq == GradReq.NULL && !anyParamGradient() ? GradReq.WRITE : inputReq;
    for (int a = 0; a < args.size(); a++) {
      String name = args.get(a);
      int input = inputIndex(name);
      ParameterStore.Slot slot = params.get(name);
      if (input >= 0) {
        if (inputGradReq != GradReq.NULL && inputGrads[input] == null) {
          inputGrads[input] = Tensor.zeros(inputShapes.get(input), params.device());
        }
        argHandles[a] = inputs[input].handle();
        gradHandles[a] = inputGradReq == GradReq.NULL ? null : inputGrads[input].handle();
        reqs[a] = inputGradReq.code;
      } else if (slot != null) {
        GradReq req = graph.isFrozen(name) ? GradReq.NULL : paramReq;
        argHandles[a] = (forInference ? params.inferenceWeight(name) : slot.weight()).handle();
        gradHandles[a] = req == GradReq.NULL ? null : slot.grad().handle();
        reqs[a] = req.code;
      } else if (graph.labels().contains(name)) {
        argHandles[a] = labels[graph.labels().indexOf(name)].handle();
        reqs[a] = GradReq.NULL.code;
      } else if (graph.state(name) != null) {
        argHandles[a] =
            params.states().array(graph.state(name), stateBatch.get(name), carryState).handle();
        reqs[a] = GradReq.NULL.code;
      } else {
        throw new IllegalStateException(graph.model() + ": no array for argument '" + name + "'");
      }
    }
    List<AuxSpec> auxSpecs = graph.auxStates();
    NDArrayHandle[] auxHandles = new NDArrayHandle[auxSpecs.size()];
    for (int i = 0; i < auxHandles.length; i++) {
      ParameterStore.AuxSlot aux = params.aux(auxSpecs.get(i).name());
      if (aux == null) {
        throw new IllegalStateException(
            graph.model() + ": no array for auxiliary state '" + auxSpecs.get(i).name() + "'");
      }
      if (wideAux == null && !graph.widenedAuxStates().isEmpty()) {
        wideAux = WideAuxStates.of(graph, params);
      }
      Tensor wider = wideAux == null ? null : wideAux.array(aux.name());
      auxHandles[i] = (wider == null ? aux.value() : wider).handle();
    }
    ExecutorHandle exec;
    try {
      // The graph layer still hands out its symbol as a raw handle; it goes to MXNet untouched.
      exec =
          ExecutorHandle.bind(
              graph.symbol(), params.device(), argHandles, gradHandles, reqs, auxHandles);
    } catch (MxException e) {
      throw graph.sources().trace("binding for input shapes " + inputShapes, e);
    }
    Tensor[] outs = null;
    try {
      NDArrayHandle[] handles = exec.outputs();
      outs = new Tensor[handles.length];
      for (int i = 0; i < handles.length; i++) {
        outs[i] = Tensor.wrap(handles[i], params.device());
      }
      return new Binding(exec, outs);
    } catch (RuntimeException e) {
      closeAll(outs);
      try {
        exec.close();
      } catch (RuntimeException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  /**
   * The batch size each state argument is bound for: its layer's declared batch when that is a
   * constant, otherwise the size this executor gives {@code BATCH}.
   */
  private void stateBatches(List<Shape> inputShapes) {
    int batch = -1;
    List<InputSpec> specs = graph.inputs();
    for (int i = 0; i < specs.size() && batch < 0; i++) {
      int[] declared = specs.get(i).shape().dims();
      for (int d = 0; d < declared.length; d++) {
        if (declared[d] == Shape.BATCH) {
          batch = inputShapes.get(i).dim(d);
          break;
        }
      }
    }
    for (StateSpec s : graph.states()) {
      int b = s.batch() > 0 ? s.batch() : batch;
      if (b < 0) {
        throw new IllegalStateException(
            graph.model()
                + ": the batch size of state '"
                + s.name()
                + "' is BATCH, but no input has a BATCH dimension");
      }
      stateBatch.put(s.name(), b);
    }
  }

  /** The batch size of this executor's recurrent states, or -1 without any. */
  public int stateBatch() {
    return stateBatch.isEmpty() ? -1 : stateBatch.values().iterator().next();
  }

  /** The copies of {@code b}'s final states into the carried state arrays, made once. */
  private List<PreparedOp> carry(Binding b) {
    return carries.computeIfAbsent(
        b,
        k -> {
          List<PreparedOp> ops = new ArrayList<>();
          int first = graph.outputs().size();
          for (StateSpec s : graph.states()) {
            if (s.stateful()) {
              Tensor target = params.states().array(s, stateBatch.get(s.name()), true);
              ops.add(
                  new PreparedOp(
                      "_copyto",
                      new NDArrayHandle[] {k.outputs[first + s.stateOutput()].handle()},
                      new NDArrayHandle[] {target.handle()}));
            }
          }
          return List.copyOf(ops);
        });
  }

  private boolean anyParamGradient() {
    return paramReq != GradReq.NULL
        && params.slots().stream().anyMatch(p -> !graph.isFrozen(p.name()));
  }

  private int inputIndex(String name) {
    List<InputSpec> specs = graph.inputs();
    for (int i = 0; i < specs.size(); i++) {
      if (specs.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The thread contract of the model this executor belongs to. */
  public CallGuard guard() {
    return params.guard();
  }

  /** The graph this executor was bound for (owned by whoever made the executor). */
  public Graph graph() {
    return graph;
  }

  /** The input shapes this executor was bound for. */
  public List<Shape> inputShapes() {
    return inputShapes;
  }

  /** Input array {@code i} (declaration order); write the batch here before {@link #forward}. */
  public Tensor input(int i) {
    checkOpen();
    return inputs[i];
  }

  /** Gradient array of input {@code i}, or null when bound without input gradients. */
  public Tensor inputGrad(int i) {
    checkOpen();
    return inputGrads[i];
  }

  /**
   * The index of the first input array holding a NaN or an infinity, or -1 (one MXNet call and one
   * wait; see {@link FiniteCheck}).
   */
  public int firstNonFiniteInput() {
    checkOpen();
    if (inputCheck == null) {
      inputCheck = new FiniteCheck(List.of(inputs));
    }
    return inputCheck.firstNonFinite();
  }

  /** Label array {@code i} of a classifier graph; write the batch's class indices here. */
  public Tensor label(int i) {
    checkOpen();
    return labels[i];
  }

  /**
   * Queues a {@link WriteFence} on the input and label arrays behind the passes queued so far, so
   * that the next {@link #loadInput} and {@link #loadLabel} find them free with a wait that queues
   * nothing, instead of MXNet's synchronous copy, which waits behind everything MXNet's worker has
   * to do. For a training loop that alternates executors: called after one step's backward pass, it
   * has run by the time the step after next copies its batch in. Turned off (every copy
   * synchronous) by {@link WriteFence#SWITCH}.
   */
  public void fenceInputs() {
    checkOpen();
    loads.queueFence();
  }

  /**
   * Copies {@code values} into input array {@code i}: directly when a {@link #fenceInputs} fence
   * queued since the last pass guards it, else with MXNet's synchronous copy.
   */
  public void loadInput(int i, float[] values) {
    checkOpen();
    loads.copyInto(i, values);
  }

  /** As {@link #loadInput}, into label array {@code i}. */
  public void loadLabel(int i, float[] values) {
    checkOpen();
    loads.copyInto(inputs.length + i, values);
  }

  /**
   * Output array {@code i} (declaration order) of the latest forward pass: the training executor's
   * or the inference executor's, whichever ran it.
   */
  public Tensor output(int i) {
    checkOpen();
    return (last == null ? training : last).outputs[i];
  }

  /** Number of the model's outputs (final states of stateful layers not counted). */
  public int outputCount() {
    return headGrads.length;
  }

  /** Head-gradient array of output {@code i}; write it before {@link #backward()}. */
  public Tensor headGrad(int i) {
    checkOpen();
    return headGrads[i];
  }

  /** Runs the forward pass, in training mode ({@code train}) or inference mode. */
  public void forward(boolean train) {
    try (CallGuard.Scope call = params.guard().enter("exec forward")) {
      forwardLocked(train);
    }
  }

  private void forwardLocked(boolean train) {
    checkOpen();
    loads.readersQueued();
    Binding b = train ? training : inferenceBinding();
    if (!train) {
      params.refreshInferenceCopies();
    } else {
      params.trainingForward();
    }
    boolean carrying = carryState && graph.isStateful();
    if (carrying) {
      params.states().beforeCall(stateBatch());
    }
    // A state read longer than declared starts from the declared array (which a checkpoint, a
    // restore or another executor may have written); MXNet's batch norm updates its moving
    // statistics in the backward pass, after which they are written back (backwardLocked).
    if (wideAux != null) {
      wideAux.copyIn();
    }
    try {
      b.exec.forward(train);
    } catch (MxException e) {
      throw graph.sources().trace("running forward", e);
    }
    last = b;
    lastForwardTrained = train;
    if (carrying) {
      params.states().afterForward(carry(b));
    }
  }

  private Binding inferenceBinding() {
    if (inference == null) {
      inference = bind(true);
    }
    return inference;
  }

  /** Whether the last {@link #forward} ran in training mode. */
  public boolean lastForwardTrained() {
    return lastForwardTrained;
  }

  /**
   * Runs the backward pass with the head gradients in {@link #headGrad}: parameter gradients are
   * written or added (as bound), input gradients overwritten.
   *
   * @throws IllegalStateException unless the latest forward pass ran in training mode
   */
  public void backward() {
    backward(headHandles);
  }

  /** Runs the backward pass of a graph whose outputs are losses (no head gradients). */
  public void backwardLoss() {
    backward(HandleArray.EMPTY);
  }

  private void backward(HandleArray heads) {
    try (CallGuard.Scope call = params.guard().enter("exec backward")) {
      backwardLocked(heads);
    }
  }

  private void backwardLocked(HandleArray heads) {
    checkOpen();
    loads.readersQueued();
    if (!lastForwardTrained) {
      throw new IllegalStateException(
          graph.model()
              + ": backward needs a training-mode forward "
              + "pass on this executor first (forward(true))");
    }
    try {
      training.exec.backward(heads);
    } catch (MxException e) {
      throw graph.sources().trace("running backward", e);
    }
    if (wideAux != null) {
      wideAux.copyOut();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("executor for " + inputShapes + " is closed");
    }
  }

  /** Frees the executors and the arrays they own. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      training.close();
      if (inference != null) {
        inference.close();
      }
      if (inputCheck != null) {
        inputCheck.close();
      }
      closeAll(headGrads);
      closeAll(inputs);
      closeAll(inputGrads);
      closeAll(labels);
      if (wideAux != null) {
        wideAux.close();
      }
    }
  }

  private static void closeAll(Tensor[] ts) {
    if (ts != null) {
      for (Tensor t : ts) {
        if (t != null) {
          t.close();
        }
      }
    }
  }
}
