package demo;

import ai.djl.ndarray.NDArray;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.optim.Optimizer;
import dev.kiln.runtime.train.Classifier;
import java.nio.file.Path;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * The trainable {@link FashionMlp} model on MXNet.
 *
 * <p>Executors are bound per set of input shapes on first use and cached; all of them share
 * one set of parameter and gradient arrays. Gradients add up over {@link #backward} calls until
 * {@link #update(float)} applies and zeroes them. {@link #close()} frees every native handle.
 *
 * <pre>
 * node    layer                                       op                               output        params  flops/ex  act/ex
 * pixels  @Input(shape = {BATCH, 784})                variable                         [BATCH, 784]       0         0  3136 B
 * hidden  @Dense(units = 128, activation = Act.RELU)  FullyConnected+Activation(relu)  [BATCH, 128]  100480   201.0 K   512 B
 * logits  @Dense(units = 10)                          FullyConnected                   [BATCH, 10]     1290      2570    40 B
 * probs   @Softmax                                    softmax                          [BATCH, 10]        0        30    40 B
 * total                                                                                              101770   203.6 K  3728 B
 * </pre>
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class FashionMlpModel implements AutoCloseable {
  private static final String SUMMARY = "FashionMlp\n"
      + "node    layer                                       op                               output        params  flops/ex  act/ex\n"
      + "pixels  @Input(shape = {BATCH, 784})                variable                         [BATCH, 784]       0         0  3136 B\n"
      + "hidden  @Dense(units = 128, activation = Act.RELU)  FullyConnected+Activation(relu)  [BATCH, 128]  100480   201.0 K   512 B\n"
      + "logits  @Dense(units = 10)                          FullyConnected                   [BATCH, 10]     1290      2570    40 B\n"
      + "probs   @Softmax                                    softmax                          [BATCH, 10]        0        30    40 B\n"
      + "total                                                                                              101770   203.6 K  3728 B\n";

  private final ModelRuntime runtime;

  private final Params params;

  private FashionMlpModel(ModelRuntime runtime) {
    this.runtime = runtime;
    this.params = new Params(runtime);
  }

  /**
   * A new model on the CPU with Xavier-initialised weights, zero biases, seed 0.
   */
  public static FashionMlpModel create() {
    return create(Init.xavier(), 0L);
  }

  /**
   * A new model whose weights {@code init} fills from {@code seed}; biases start at zero.
   * The same seed gives the same parameters.
   */
  public static FashionMlpModel create(Init init, long seed) {
    return new FashionMlpModel(new ModelRuntime("FashionMlpModel", FashionMlpGraph.build(), init, seed));
  }

  /**
   * Loads the checkpoint {@code prefix-0000.params} written by {@link #save}.
   * Every parameter must be present with its exact shape.
   */
  public static FashionMlpModel load(Path prefix) {
    FashionMlpModel model = create(Init.constant(0f), 0L);
    try {
      model.runtime.loadParams(prefix);
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    return model;
  }

  /**
   * Runs the model on a batch, in the mode {@link #setTraining} chose.
   *
   * @param pixels input {@code pixels}, float32 of shape {@code [BATCH, 784]}
   * @return output {@code probs}, of shape {@code [BATCH, 10]}
   */
  public NDArray forward(NDArray pixels) {
    return runtime.forward(pixels)[0];
  }

  /**
   * Back-propagates through the last forward pass, which must have run in training mode.
   * Parameter gradients add up until the next update.
   *
   * @param dProbs gradient of the loss with respect to output {@code probs}, of its shape
   * @return the gradient of every input
   */
  public Gradients backward(NDArray dProbs) {
    NDArray[] grads = runtime.backward(dProbs);
    return new Gradients(grads[0]);
  }

  /**
   * One step of plain SGD ({@code sgd_update}, in place) with the accumulated gradients, which are
   * then zeroed.
   */
  public void update(float learningRate) {
    runtime.update(learningRate);
  }

  /**
   * One step of {@code optimizer} with the accumulated gradients, which are then zeroed.
   */
  public void update(Optimizer optimizer) {
    runtime.update(optimizer);
  }

  /**
   * Whether {@link #forward} runs in training mode; inference is the default.
   */
  public boolean isTraining() {
    return runtime.isTraining();
  }

  /**
   * Chooses training or inference mode for the next forward passes; {@link #backward} needs a
   * forward pass run in training mode.
   */
  public void setTraining(boolean training) {
    runtime.setTraining(training);
  }

  /**
   * Typed access to every parameter and auxiliary state.
   */
  public Params params() {
    return params;
  }

  /**
   * The executor bound for these input shapes (binding it on first use), with its arrays as
   * named fields. It belongs to this model and is freed by {@link #close()}.
   *
   * @param pixels complete shape of input {@code pixels}, accepted by {@code [BATCH, 784]}
   * @return the typed executor
   */
  public FashionMlpExec exec(Shape pixels) {
    return new FashionMlpExec(runtime, runtime.executor(List.of(pixels)));
  }

  /**
   * The classifier view of this model: node {@code probs} trained as MXNet's {@code SoftmaxOutput}
   * (softmax with cross-entropy against a label) on this model's own parameters.
   */
  public Classifier classifier() {
    return runtime.classifier(FashionMlpGraph::buildClassifier);
  }

  /**
   * Writes an MXNet checkpoint, {@code prefix-symbol.json} and {@code prefix-0000.params}, each
   * file atomically.
   */
  public void save(Path prefix) {
    runtime.save(prefix);
  }

  /**
   * The model's MXNet symbol as JSON.
   */
  public String symbolJson() {
    return runtime.symbolJson();
  }

  /**
   * The layer table computed at compile time: node, layer, MXNet operator, output shape,
   * parameter count.
   */
  public String summary() {
    return SUMMARY;
  }

  /**
   * The untyped runtime behind this model, for training loops and tools.
   */
  public ModelRuntime runtime() {
    return runtime;
  }

  /**
   * Frees every executor, parameter and the graph. Using the model afterwards throws
   * {@link IllegalStateException}.
   */
  @Override
  public void close() {
    runtime.close();
  }

  /**
   * The gradients of the inputs from one backward pass.
   *
   * @param pixels gradient of input {@code pixels}
   */
  public record Gradients(NDArray pixels) {
  }

  /**
   * Typed access to the parameters (and auxiliary states) of {@code FashionMlp}; reads and writes go to
   * the arrays every executor shares.
   */
  public static final class Params {
    private final ModelRuntime runtime;

    private Params(ModelRuntime runtime) {
      this.runtime = runtime;
    }

    /**
     * Parameter {@code hidden_weight} of node {@code hidden} ({@code @Dense(units = 128, activation = Act.RELU)}), shape {@code [128, 784]}.
     */
    public Parameter hiddenWeight() {
      return runtime.param("hidden_weight");
    }

    /**
     * Parameter {@code hidden_bias} of node {@code hidden} ({@code @Dense(units = 128, activation = Act.RELU)}), shape {@code [128]}.
     */
    public Parameter hiddenBias() {
      return runtime.param("hidden_bias");
    }

    /**
     * Parameter {@code logits_weight} of node {@code logits} ({@code @Dense(units = 10)}), shape {@code [10, 128]}.
     */
    public Parameter logitsWeight() {
      return runtime.param("logits_weight");
    }

    /**
     * Parameter {@code logits_bias} of node {@code logits} ({@code @Dense(units = 10)}), shape {@code [10]}.
     */
    public Parameter logitsBias() {
      return runtime.param("logits_bias");
    }
  }
}
