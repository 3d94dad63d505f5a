package dev.kiln.differential;

import ai.djl.ndarray.NDArray;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.data.DataLoader;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.exec.ParameterStore;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.FitResult;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The one place where the differential suite touches Kiln's runtime API and a generated {@code
 * XModel}: everything else in the suite sees models through this adapter (plain Java arrays, names
 * and DJL {@link NDArray}s), so that a later rename of the runtime's packages or classes changes
 * this file alone.
 *
 * <p>The generated class is compiled inside the test and loaded by a class loader of its own, so
 * its static factories {@code create(Init, long)} and {@code load(Path)} and the typed {@code
 * params()} accessors are reached by reflection; everything else goes through the {@link KilnModel}
 * interface every generated model implements and its untyped {@code ModelRuntime}.
 */
final class DiffModel implements AutoCloseable {
  /** The initialisers a generated model can be created with, by name. */
  static final List<String> INITS = List.of("xavier", "xavierNormal", "he", "normal", "uniform");

  private final KilnModel model;
  private final ModelRuntime runtime;
  private final String name;

  private DiffModel(Object model) {
    this.model = (KilnModel) model;
    this.runtime = this.model.runtime();
    this.name = this.model.name();
  }

  /** The generated model itself. */
  KilnModel kiln() {
    return model;
  }

  /**
   * The weights that get inference copies as the graph builder recorded them, and as the symbol's
   * JSON says they should be (a weight missing from the first would be bound as a view in
   * inference, issue 8's corruption).
   */
  List<Set<String>> reorderedWeights() {
    return List.of(runtime.graph().reorderedWeights(), runtime.graph().reorderedWeightsInSymbol());
  }

  /**
   * A new model of the {@code @Model} interface {@code modelInterface} (qualified name) loaded by
   * {@code loader}, its weights drawn by the initialiser named {@code init} (one of {@link #INITS})
   * from {@code seed}.
   */
  static DiffModel create(ClassLoader loader, String modelInterface, String init, long seed) {
    Class<?> type = modelClass(loader, modelInterface);
    return new DiffModel(
        invokeStatic(type, "create", new Class<?>[] {Init.class, long.class}, init(init), seed));
  }

  /** The model of {@code modelInterface} read from the checkpoint at {@code prefix}. */
  static DiffModel load(ClassLoader loader, String modelInterface, Path prefix) {
    Class<?> type = modelClass(loader, modelInterface);
    return new DiffModel(invokeStatic(type, "load", new Class<?>[] {Path.class}, prefix));
  }

  /**
   * Loads the weights of the model's imported file ({@code loadImported(Path)} of a model with an
   * {@code @Imported} node) from {@code file}.
   */
  void loadImported(Path file) {
    try {
      model.getClass().getMethod("loadImported", Path.class).invoke(model, file);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(name + ".loadImported(" + file + ") failed: " + e, e);
    }
  }

  /** Writes the model as an ONNX file ({@code exportOnnx}). */
  void exportOnnx(Path file) {
    model.exportOnnx(file);
  }

  /** Seeds MXNet's own random generators (dropout masks). */
  static void seedMxnet(int seed) {
    Mx.seed(seed);
  }

  private static Init init(String name) {
    return switch (name) {
      case "xavier" -> Init.xavier();
      case "xavierNormal" -> Init.xavierNormal();
      case "he" -> Init.he();
      case "normal" -> Init.normal(0.1f);
      case "uniform" -> Init.uniform(0.2f);
      default -> throw new IllegalArgumentException("unknown initialiser " + name);
    };
  }

  /** The generated class's simple name, e.g. {@code Gen17Model}. */
  String name() {
    return name;
  }

  /** The inputs' names, in declaration order (the order {@link #forward} takes them). */
  List<String> inputNames() {
    return runtime.graph().inputs().stream().map(InputSpec::name).toList();
  }

  /** The inputs' declared shapes, {@code -1} where {@code BATCH}. */
  List<int[]> inputShapes() {
    return runtime.graph().inputs().stream().map(i -> i.shape().dims()).toList();
  }

  /** The outputs' node names, in declaration order. */
  List<String> outputNames() {
    return runtime.graph().outputs();
  }

  /** Every argument of the MXNet symbol (inputs and parameters) in MXNet's order. */
  List<String> argumentNames() {
    return runtime.graph().arguments();
  }

  /** The model's MXNet symbol as JSON. */
  String symbolJson() {
    return runtime.symbolJson();
  }

  /** The parameters' names, in MXNet's argument order. */
  List<String> paramNames() {
    return runtime.slots().stream().map(ParameterStore.Slot::name).toList();
  }

  /** The auxiliary states' names (batch-norm moving averages). */
  List<String> auxNames() {
    return runtime.auxSlots().stream().map(ParameterStore.AuxSlot::name).toList();
  }

  /** Whether parameter {@code param} belongs to a {@code @Frozen} node. */
  boolean isFrozen(String param) {
    return runtime.isFrozen(param);
  }

  /**
   * The outputs of a fused inference-only predictor of the model as it is now ({@code
   * model.predictor()}, MXNet's oneDNN pass) on {@code inputs} of shapes {@code shapes} (any labels
   * a loss head takes get zeros, as the model's own inference pass binds them), or null when the
   * model cannot have one (a symbol per number of steps, an input without one batch dimension).
   */
  float[][] fusedForward(float[][] inputs, int[][] shapes) {
    dev.kiln.runtime.infer.Predictor p;
    try {
      p = model.predictor();
    } catch (UnsupportedOperationException e) {
      return null;
    }
    try (p) {
      List<dev.kiln.runtime.infer.Port> ports = p.inputs();
      int batch = shapes[0][ports.get(0).batchAxis()];
      float[][] values = new float[ports.size()][];
      for (int i = 0; i < values.length; i++) {
        values[i] = i < inputs.length ? inputs[i] : new float[batch * ports.get(i).exampleSize()];
      }
      return p.predict(batch, values);
    }
  }

  /** The current values of parameter {@code param}. */
  float[] param(String param) {
    return runtime.param(param).get();
  }

  /** Writes parameter {@code param} through the untyped runtime. */
  void setParam(String param, float[] values) {
    runtime.param(param).set(values);
  }

  /**
   * Writes a parameter through the generated typed view, {@code params().<accessor>().set(..)},
   * e.g. accessor {@code convWeight}.
   */
  void setParamTyped(String accessor, float[] values) {
    Object params = call(model, "params");
    ((Parameter) call(params, accessor)).set(values);
  }

  /** The accumulated gradient of parameter {@code param}. */
  float[] grad(String param) {
    return runtime.param(param).grad();
  }

  /** The current values of auxiliary state {@code aux}. */
  float[] aux(String aux) {
    return runtime.auxState(aux).get();
  }

  /** Chooses training or inference mode for the next forward passes. */
  void setTraining(boolean training) {
    model.setTraining(training);
  }

  /**
   * Runs the forward pass; one array per output, in declaration order. A stateful model starts from
   * zeros every time (its state reset first), so that every check sees one function.
   */
  NDArray[] forward(NDArray... inputs) {
    if (stateful()) {
      runtime.resetState();
    }
    return runtime.forward(inputs);
  }

  /**
   * The recurrent state arguments of the symbol (neither inputs nor parameters; Kiln binds zeros or
   * the carried state), each name to its shape for {@code batch}.
   */
  java.util.Map<String, int[]> stateShapes(int batch) {
    java.util.Map<String, int[]> m = new java.util.LinkedHashMap<>();
    for (dev.kiln.runtime.graph.StateSpec s : runtime.graph().states()) {
      m.put(s.name(), s.shape(batch).dims());
    }
    return m;
  }

  /** Starts new sequences: stateful layers go back to zeros. */
  void resetState() {
    runtime.resetState();
  }

  /** The forward pass without resetting a stateful model's state first: it carries on. */
  NDArray[] forwardCarrying(NDArray... inputs) {
    return runtime.forward(inputs);
  }

  /** The state the stateful layers carry into the next call, by state name. */
  java.util.Map<String, float[]> readState() {
    return runtime.readState();
  }

  /** Replaces the carried state for a batch of {@code batch}. */
  void writeState(int batch, java.util.Map<String, float[]> state) {
    runtime.writeState(batch, state);
  }

  /** Whether a recurrent layer carries its state from call to call. */
  boolean stateful() {
    return runtime.graph().isStateful();
  }

  /** Back-propagates one head gradient per output; returns the input gradients. */
  NDArray[] backward(NDArray... heads) {
    return runtime.backward(heads);
  }

  /** One plain SGD step through the generated {@code update(float)}; gradients are zeroed. */
  void update(float learningRate) {
    model.update(learningRate);
  }

  /** Writes the checkpoint {@code prefix-symbol.json} and {@code prefix-0000.params}. */
  void save(Path prefix) {
    model.save(prefix);
  }

  /** Reads checkpoint {@code prefix} into this model (not a new one). */
  void loadParams(Path prefix) {
    runtime.loadParams(prefix);
  }

  /** Whether the model is a classifier (offers {@code classifier()}). */
  boolean isClassifier() {
    return model.isClassifier();
  }

  private Classifier classifier() {
    return model.classifier();
  }

  /** The classifier's number of classes. */
  int classes() {
    return classifier().classes();
  }

  /**
   * One {@code classifier().trainBatch} with plain SGD; returns the batch's mean loss and accuracy.
   */
  double[] trainClassifierBatch(float[] features, int[] labels, float learningRate) {
    try (Sgd sgd = new Sgd(learningRate)) {
      Classifier.Result r = classifier().trainBatch(features, labels, sgd);
      return new double[] {r.meanLoss(), r.accuracy()};
    }
  }

  /**
   * {@code classifier().fit} with plain SGD over {@code features} ({@code featureSize} values per
   * example), shuffled from {@code seed}, validating on the same data; returns each epoch's train
   * loss and validation loss, {@code [epoch][2]}.
   */
  double[][] fitClassifier(
      float[] features,
      int[] labels,
      int featureSize,
      int batch,
      int epochs,
      float learningRate,
      long seed) {
    Dataset data = new Dataset(features, labels, featureSize, classes());
    try (Sgd sgd = new Sgd(learningRate)) {
      FitResult r = classifier().fit(DataLoader.of(data, batch).shuffled(seed), data, epochs, sgd);
      return r.epochs().stream()
          .map(e -> new double[] {e.trainLoss(), e.validation().loss()})
          .toArray(double[][]::new);
    }
  }

  /** {@code classifier().evaluate}: mean loss and accuracy. */
  double[] evaluateClassifier(float[] features, int[] labels, int featureSize) {
    Evaluation e = classifier().evaluate(new Dataset(features, labels, featureSize, classes()));
    return new double[] {e.loss(), e.accuracy()};
  }

  /** {@code classifier().predict}: the predicted class of every example. */
  int[] predictClassifier(float[] features, int[] labels, int featureSize) {
    return classifier().predict(new Dataset(features, labels, featureSize, classes()));
  }

  /** Whether the model's only output is a loss head (offers {@code trainer()}). */
  boolean hasTrainer() {
    return model.hasTrainer();
  }

  /** The loss head's kind: {@code L2}, {@code L1} or {@code LOGISTIC} ({@code LOSS} too). */
  String lossKind() {
    return model.trainer().kind().name();
  }

  /** One {@code trainer().trainBatch} with plain SGD; returns the batch's mean loss. */
  double trainLossHeadBatch(float[] features, float[] targets, int examples, float learningRate) {
    try (Sgd sgd = new Sgd(learningRate)) {
      return model.trainer().trainBatch(features, targets, examples, sgd).meanLoss();
    }
  }

  /** {@code trainer().evaluate}: mean loss and metric over examples with targets. */
  double[] evaluateLossHead(float[] features, int featureSize, float[] targets, int targetSize) {
    Evaluation e =
        model.trainer().evaluate(Dataset.withTargets(features, featureSize, targets, targetSize));
    return new double[] {e.loss(), e.metric()};
  }

  /** Frees every native handle of the model. */
  @Override
  public void close() {
    model.close();
  }

  private static Class<?> modelClass(ClassLoader loader, String modelInterface) {
    try {
      return Class.forName(modelInterface + "Model", true, loader);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no generated class " + modelInterface + "Model", e);
    }
  }

  private static Object call(Object target, String method) {
    return invoke(target, method, new Class<?>[0]);
  }

  private static Object invokeStatic(
      Class<?> type, String method, Class<?>[] types, Object... args) {
    try {
      return run(type.getMethod(method, types), null, args);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(type.getName() + " has no method " + method, e);
    }
  }

  private static Object invoke(Object target, String method, Class<?>[] types, Object... args) {
    try {
      return run(target.getClass().getMethod(method, types), target, args);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(target.getClass().getName() + " has no method " + method, e);
    }
  }

  /** Calls {@code m}, rethrowing what the generated code threw as it was. */
  private static Object run(Method m, Object target, Object... args) {
    try {
      return m.invoke(target, args);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot call " + m, e);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(m + " threw", cause);
    }
  }
}
