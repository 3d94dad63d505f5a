package dev.kiln.runtime;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.infer.QuantizeOptions;
import dev.kiln.runtime.optim.Optimizer;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.runtime.train.Fitter;
import dev.kiln.runtime.train.Trainer;
import java.nio.file.Path;
import java.util.List;

/**
 * What every generated {@code XModel} is, whatever its layers: the untyped face that tools,
 * training loops and the distributed trainer take, so that they work with any model without an
 * adapter. Each generated model adds typed methods of its own ({@code forward(NDArray pixels)},
 * {@code params().hiddenWeight()}, {@code Outputs}, {@code Gradients}); these are the same
 * operations on lists in declaration order.
 *
 * <p>What is the same for every model (passes on lists, updates, the training mode, saving,
 * closing) is written once here, over {@link #runtime()}; a generated model implements what differs
 * from model to model: its name, inputs, outputs, parameters, heads, summary and runtime.
 *
 * <p>A model is not thread-safe: use it from one thread at a time.
 */
public interface KilnModel extends AutoCloseable {
  /** The generated class's simple name, e.g. {@code FashionMlpModel}. */
  String name();

  /** The inputs, in declaration order, with their declared shapes. */
  List<InputSpec> inputs();

  /** The names of the outputs, in declaration order. */
  List<String> outputs();

  /**
   * Runs the model on one array per input (declaration order), in the mode {@link #setTraining}
   * chose, and returns one array per output (declaration order), in the first input's manager.
   */
  default NDList forward(NDList inputs) {
    return new NDList(runtime().forward(inputs.toArray(new NDArray[0])));
  }

  /**
   * Back-propagates one head gradient per output through the latest forward pass, which must have
   * run in training mode; returns one gradient per input. Parameter gradients add up until the next
   * update.
   */
  default NDList backward(NDList headGradients) {
    return new NDList(runtime().backward(headGradients.toArray(new NDArray[0])));
  }

  /**
   * One step of plain SGD ({@code sgd_update}, in place) with the accumulated gradients, which are
   * then zeroed.
   */
  default void update(float learningRate) {
    runtime().update(learningRate);
  }

  /** One step of {@code optimizer} with the accumulated gradients, which are then zeroed. */
  default void update(Optimizer optimizer) {
    runtime().update(optimizer);
  }

  /** Whether forward passes run in training mode; inference is the default. */
  default boolean isTraining() {
    return runtime().isTraining();
  }

  /**
   * Chooses training or inference mode for the next forward passes; {@code backward} needs a
   * forward pass run in training mode.
   */
  default void setTraining(boolean training) {
    runtime().setTraining(training);
  }

  /** Access to every parameter and auxiliary state. */
  ModelParams params();

  /**
   * Writes an MXNet checkpoint, {@code prefix-symbol.json} and {@code prefix-0000.params}, each
   * file atomically.
   */
  default void save(Path prefix) {
    runtime().save(prefix);
  }

  /**
   * Writes this model as an ONNX file (opset 17) that ONNX Runtime and other ONNX tools run: the
   * inference graph (dropout removed, batch norm in its inference form, a loss head as its
   * prediction), the trained weights as initializers, the inputs with {@code BATCH} as the symbolic
   * dimension {@code batch}, the outputs under the names of {@link #outputs()}. Written atomically;
   * see docs/export.md.
   *
   * @throws dev.kiln.onnx.OnnxExportException naming the node and why, when a node cannot be
   *     expressed in ONNX; nothing is written then
   * @throws java.io.UncheckedIOException if the file cannot be written
   */
  default void exportOnnx(Path file) {
    exportOnnx(file, dev.kiln.onnx.OnnxExport.DEFAULT_OPSET);
  }

  /** As {@link #exportOnnx(Path)}, in {@code opset} (13 to 21). */
  default void exportOnnx(Path file, int opset) {
    runtime().exportOnnx(file, opset, outputs());
  }

  /** Whether {@link #classifier()} is available: the last node is a softmax over classes. */
  boolean isClassifier();

  /**
   * The classifier view of this model (softmax trained as MXNet's {@code SoftmaxOutput} on this
   * model's own parameters).
   *
   * @throws UnsupportedOperationException unless {@link #isClassifier()}
   */
  Classifier classifier();

  /**
   * Trains in {@code precision} from now on: {@code Precision.BF16} runs convolutions and dense
   * layers in bfloat16 with float32 master weights, where the CPU has AVX-512 BF16 (see {@link
   * dev.kiln.runtime.graph.precision.Precision}). Call it before the first {@link #classifier()} or
   * {@link #trainer()}.
   *
   * @throws UnsupportedOperationException where this machine cannot train in {@code precision}
   */
  default void trainingPrecision(dev.kiln.runtime.graph.precision.Precision precision) {
    runtime().trainingPrecision(precision);
  }

  /** Whether {@link #trainer()} is available: the model's only output is a loss head. */
  default boolean hasTrainer() {
    return false;
  }

  /**
   * The trainer of this model's loss head ({@code @L2Loss}, {@code @L1Loss}, {@code @LogisticLoss},
   * {@code @Loss}) on this model's own parameters.
   *
   * @throws UnsupportedOperationException unless {@link #hasTrainer()}
   */
  default Trainer trainer() {
    throw new UnsupportedOperationException(
        name()
            + " has no trainer: its only output must be a loss head (@L2Loss, @L1Loss, "
            + "@LogisticLoss or @Loss); add one after the prediction, e.g. a node "
            + "@L2Loss Sym fit(Sym prediction)"
            + (isClassifier() ? "; it is a classifier: train it with classifier()" : ""));
  }

  /**
   * What trains this model against known answers: its {@link #classifier()} or its {@link
   * #trainer()}, whichever it has.
   *
   * @throws UnsupportedOperationException if it has neither, saying why
   */
  default Fitter fitter() {
    if (isClassifier()) {
      return classifier();
    }
    if (hasTrainer()) {
      return trainer();
    }
    throw new UnsupportedOperationException(
        name()
            + " has neither a classifier nor a trainer (it needs a @Softmax or a loss head such as "
            + "@L2Loss as its only output); train it with forward, backward and update. "
            + "classifier() says why it is no classifier");
  }

  /** The model's MXNet symbol as JSON. */
  default String symbolJson() {
    return runtime().symbolJson();
  }

  /**
   * Starts new sequences: every stateful recurrent layer goes back to a zero state (a model without
   * one has nothing to reset).
   */
  default void resetState() {
    runtime().resetState();
  }

  /**
   * Chooses what a call does while another thread is inside a call of this model (see {@link
   * dev.kiln.runtime.exec.CallGuard}): fail at once (the default) or wait its turn.
   */
  default void threadPolicy(dev.kiln.runtime.exec.CallGuard.Policy policy) {
    runtime().threadPolicy(policy);
  }

  /**
   * An inference-only copy of this model as it is now, fused by MXNet's oneDNN graph pass: its own
   * weights, executors bound without gradients, one call at a time (see {@link Predictor}). Later
   * training does not change it; close it when done.
   */
  default Predictor predictor() {
    return runtime().predictor(InferenceOptions.DEFAULT);
  }

  /** As {@link #predictor()}, with {@code options} (e.g. {@link InferenceOptions#unfused()}). */
  default Predictor predictor(InferenceOptions options) {
    return runtime().predictor(options);
  }

  /**
   * An int8 copy of this model as it is now, made with MXNet's post-training quantisation flow and
   * calibrated on {@code calibration} (examples of the model's one input; see {@link
   * dev.kiln.runtime.infer.Quantizer}): an inference-only {@link Predictor}, which {@link
   * Predictor#save} writes as an MXNet checkpoint. Close it when done.
   */
  default Predictor quantized(Dataset calibration, QuantizeOptions options) {
    try (Predictor fp32 = predictor()) {
      return fp32.quantized(calibration, options);
    }
  }

  /** The layer table computed at compile time. */
  String summary();

  /** The runtime behind this model, for tools that need its arrays (e.g. data parallelism). */
  ModelRuntime runtime();

  /**
   * Frees every executor, parameter and the graph; later use throws {@link IllegalStateException}.
   */
  @Override
  default void close() {
    runtime().close();
  }

  /** Every parameter and auxiliary state of a model, by MXNet name. */
  interface ModelParams {
    /** The learnable parameters, in MXNet's argument order. */
    List<Parameter> parameters();

    /** The auxiliary states (e.g. batch-norm moving averages), in MXNet's order. */
    List<Parameter> auxiliaryStates();

    /**
     * The parameter or auxiliary state called {@code name} (e.g. {@code hidden_weight}).
     *
     * @throws IllegalArgumentException if the model has none of that name
     */
    Parameter get(String name);
  }
}
