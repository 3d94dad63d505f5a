package lenet;

import ai.djl.ndarray.NDArray;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.train.Classifier;
import java.nio.file.Path;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * The trainable {@link LeNet} model on MXNet.
 *
 * <p>Executors are bound per set of input shapes on first use and cached; all of them share one set
 * of parameter and gradient arrays. Gradients add up over {@link #backward} calls until
 * {@link #update(float)} applies and zeroes them. {@link #close()} frees every native handle.
 *
 * <p>Its nodes as the processor checked them, with the output shape, parameter count and, per
 * example, the forward FLOPs and output bytes of each ({@link #SUMMARY} holds the same table):
 *
 * <pre>
 * node      layer / MXNet op                  output               params  flops/ex   act/ex
 * pixels    @Input(shape = {BATCH, 784})      [BATCH, 784]              0         0   3136 B
 *             variable
 * image     @Reshape(shape = {BATCH, 1, 28,   [BATCH, 1, 28, 28]        0         0   3136 B
 *               28})
 *             Reshape
 * conv1     @Conv2D(filters = 6, kernel = 5,  [BATCH, 6, 28, 28]      156   239.9 K  18.8 KB
 *               pad = 2)
 *             Convolution
 * bn1       @BatchNorm                        [BATCH, 6, 28, 28]       12    18.8 K  18.8 KB
 *             BatchNorm
 * relu1     @Activation(Act.RELU)             [BATCH, 6, 28, 28]        0      4704  18.8 KB
 *             Activation(relu)
 * pool1     @MaxPool(kernel = 2)              [BATCH, 6, 14, 14]        0      4704   4704 B
 *             Pooling(max)
 * conv2     @Conv2D(filters = 16,             [BATCH, 16, 10, 10]    2416   483.2 K   6400 B
 *               kernel = 5,
 *               activation = Act.RELU)
 *             Convolution+Activation(relu)
 * pool2     @MaxPool(kernel = 2, stride = 2)  [BATCH, 16, 5, 5]         0      1600   1600 B
 *             Pooling(max)
 * features  @Flatten                          [BATCH, 400]              0         0   1600 B
 *             Flatten
 * hidden    @Dense(units = 120,               [BATCH, 120]          48120    96.2 K    480 B
 *               activation = Act.RELU)
 *             FullyConnected+Activation(relu
 *               )
 * dropped   @Dropout(rate = 0.25)             [BATCH, 120]              0       120    480 B
 *             Dropout
 * logits    @Dense(units = 10)                [BATCH, 10]            1210      2410     40 B
 *             FullyConnected
 * probs     @Softmax                          [BATCH, 10]               0        30     40 B
 *             softmax
 * total                                                             51914   851.7 K  78.1 KB
 * </pre>
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class LeNetModel implements KilnModel {
  /**
   * The model's name and layer table, as {@link #summary()} returns them: a constant, so that tools
   * can show it without creating a model, which starts MXNet.
   */
  public static final String SUMMARY = """
      LeNet
      node      layer / MXNet op                  output               params  flops/ex   act/ex
      pixels    @Input(shape = {BATCH, 784})      [BATCH, 784]              0         0   3136 B
                  variable
      image     @Reshape(shape = {BATCH, 1, 28,   [BATCH, 1, 28, 28]        0         0   3136 B
                    28})
                  Reshape
      conv1     @Conv2D(filters = 6, kernel = 5,  [BATCH, 6, 28, 28]      156   239.9 K  18.8 KB
                    pad = 2)
                  Convolution
      bn1       @BatchNorm                        [BATCH, 6, 28, 28]       12    18.8 K  18.8 KB
                  BatchNorm
      relu1     @Activation(Act.RELU)             [BATCH, 6, 28, 28]        0      4704  18.8 KB
                  Activation(relu)
      pool1     @MaxPool(kernel = 2)              [BATCH, 6, 14, 14]        0      4704   4704 B
                  Pooling(max)
      conv2     @Conv2D(filters = 16,             [BATCH, 16, 10, 10]    2416   483.2 K   6400 B
                    kernel = 5,
                    activation = Act.RELU)
                  Convolution+Activation(relu)
      pool2     @MaxPool(kernel = 2, stride = 2)  [BATCH, 16, 5, 5]         0      1600   1600 B
                  Pooling(max)
      features  @Flatten                          [BATCH, 400]              0         0   1600 B
                  Flatten
      hidden    @Dense(units = 120,               [BATCH, 120]          48120    96.2 K    480 B
                    activation = Act.RELU)
                  FullyConnected+Activation(relu
                    )
      dropped   @Dropout(rate = 0.25)             [BATCH, 120]              0       120    480 B
                  Dropout
      logits    @Dense(units = 10)                [BATCH, 10]            1210      2410     40 B
                  FullyConnected
      probs     @Softmax                          [BATCH, 10]               0        30     40 B
                  softmax
      total                                                             51914   851.7 K  78.1 KB
      """;

  private static final List<InputSpec> INPUTS = List.of(
      new InputSpec("pixels", LeNetGraph.PIXELS_SHAPE));

  private static final List<String> OUTPUTS = List.of("probs");

  private final ModelRuntime runtime;

  private final Params params;

  private LeNetModel(ModelRuntime runtime) {
    this.runtime = runtime;
    this.params = new Params(runtime);
  }

  /**
   * A new model on the CPU with Xavier-initialised weights, zero biases, seed 0.
   *
   * @return the model, which the caller must close
   */
  public static LeNetModel create() {
    return create(Init.xavier(), 0L);
  }

  /**
   * A new model whose weights {@code init} fills from {@code seed}; biases start at zero. The same
   * seed gives the same parameters.
   *
   * @param init fills the weights
   * @param seed seeds {@code init}
   * @return the model, which the caller must close
   */
  public static LeNetModel create(Init init, long seed) {
    return new LeNetModel(new ModelRuntime("LeNetModel", graph(false), init, seed));
  }

  /**
   * A new graph of {@code LeNet}, built by {@link LeNetGraph}; with {@code training}, for training
   * against labels (the head as its training loss). The caller owns it.
   */
  private static Graph graph(boolean training) {
    try (GraphBuilder builder = new GraphBuilder("LeNet", training)) {
      return LeNetGraph.build(builder);
    }
  }

  /**
   * Loads the checkpoint {@code prefix-0000.params} written by {@link #save}. Every parameter must
   * be present with its exact shape.
   *
   * @param prefix the checkpoint's path without {@code -0000.params}
   * @return the model, which the caller must close
   */
  public static LeNetModel load(Path prefix) {
    LeNetModel model = create(Init.constant(0f), 0L);
    try {
      model.runtime.loadParams(prefix);
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    return model;
  }

  /**
   * The generated class's simple name, {@code LeNetModel}.
   */
  @Override
  public String name() {
    return "LeNetModel";
  }

  /**
   * The inputs in declaration order, with their declared shapes: {@code pixels [BATCH, 784]}.
   */
  @Override
  public List<InputSpec> inputs() {
    return INPUTS;
  }

  /**
   * The names of the outputs in declaration order: {@code probs}.
   */
  @Override
  public List<String> outputs() {
    return OUTPUTS;
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
   * Back-propagates through the last forward pass, which must have run in training mode. Parameter
   * gradients add up until the next update.
   *
   * @param dProbs gradient of the loss with respect to output {@code probs}, of its shape
   * @return the gradient of every input
   */
  public Gradients backward(NDArray dProbs) {
    NDArray[] grads = runtime.backward(dProbs);
    return new Gradients(grads[0]);
  }

  /**
   * Typed access to every parameter and auxiliary state.
   */
  @Override
  public Params params() {
    return params;
  }

  /**
   * The executor bound for these input shapes (binding it on first use), with its arrays as named
   * fields. It belongs to this model and is freed by {@link #close()}.
   *
   * @param pixels complete shape of input {@code pixels}, accepted by {@code [BATCH, 784]}
   * @return the typed executor
   */
  public LeNetExec exec(Shape pixels) {
    return new LeNetExec(runtime, runtime.executor(List.of(pixels)));
  }

  /**
   * True: {@link #classifier()} trains the softmax {@code probs}.
   */
  @Override
  public boolean isClassifier() {
    return true;
  }

  /**
   * The classifier view of this model: node {@code probs} trained as MXNet's {@code SoftmaxOutput}
   * (softmax with cross-entropy against a label) on this model's own parameters.
   */
  @Override
  public Classifier classifier() {
    return runtime.classifier(() -> graph(true));
  }

  /**
   * The model's name and the layer table computed at compile time: {@link #SUMMARY}.
   */
  @Override
  public String summary() {
    return SUMMARY;
  }

  /**
   * The untyped runtime behind this model, for training loops and tools.
   */
  @Override
  public ModelRuntime runtime() {
    return runtime;
  }

  /**
   * The gradients of the inputs from one backward pass.
   *
   * @param pixels gradient of input {@code pixels}
   */
  public record Gradients(NDArray pixels) {
  }

  /**
   * Typed access to the parameters (and auxiliary states) of {@code LeNet}; reads and writes go to
   * the arrays every executor shares.
   */
  public static final class Params implements KilnModel.ModelParams {
    private final ModelRuntime runtime;

    private Params(ModelRuntime runtime) {
      this.runtime = runtime;
    }

    /**
     * Parameter {@code conv1_weight} of node {@code conv1}
     * ({@code @Conv2D(filters = 6, kernel = 5, pad = 2)}), shape {@code [6, 1, 5, 5]}.
     */
    public Parameter conv1Weight() {
      return runtime.param("conv1_weight");
    }

    /**
     * Parameter {@code conv1_bias} of node {@code conv1}
     * ({@code @Conv2D(filters = 6, kernel = 5, pad = 2)}), shape {@code [6]}.
     */
    public Parameter conv1Bias() {
      return runtime.param("conv1_bias");
    }

    /**
     * Parameter {@code bn1_gamma} of node {@code bn1} ({@code @BatchNorm}), shape {@code [6]}.
     */
    public Parameter bn1Gamma() {
      return runtime.param("bn1_gamma");
    }

    /**
     * Parameter {@code bn1_beta} of node {@code bn1} ({@code @BatchNorm}), shape {@code [6]}.
     */
    public Parameter bn1Beta() {
      return runtime.param("bn1_beta");
    }

    /**
     * Parameter {@code conv2_weight} of node {@code conv2}
     * ({@code @Conv2D(filters = 16, kernel = 5, activation = Act.RELU)}), shape
     * {@code [16, 6, 5, 5]}.
     */
    public Parameter conv2Weight() {
      return runtime.param("conv2_weight");
    }

    /**
     * Parameter {@code conv2_bias} of node {@code conv2}
     * ({@code @Conv2D(filters = 16, kernel = 5, activation = Act.RELU)}), shape {@code [16]}.
     */
    public Parameter conv2Bias() {
      return runtime.param("conv2_bias");
    }

    /**
     * Parameter {@code hidden_weight} of node {@code hidden}
     * ({@code @Dense(units = 120, activation = Act.RELU)}), shape {@code [120, 400]}.
     */
    public Parameter hiddenWeight() {
      return runtime.param("hidden_weight");
    }

    /**
     * Parameter {@code hidden_bias} of node {@code hidden}
     * ({@code @Dense(units = 120, activation = Act.RELU)}), shape {@code [120]}.
     */
    public Parameter hiddenBias() {
      return runtime.param("hidden_bias");
    }

    /**
     * Parameter {@code logits_weight} of node {@code logits} ({@code @Dense(units = 10)}), shape
     * {@code [10, 120]}.
     */
    public Parameter logitsWeight() {
      return runtime.param("logits_weight");
    }

    /**
     * Parameter {@code logits_bias} of node {@code logits} ({@code @Dense(units = 10)}), shape
     * {@code [10]}.
     */
    public Parameter logitsBias() {
      return runtime.param("logits_bias");
    }

    /**
     * Auxiliary state {@code bn1_moving_mean} of node {@code bn1} ({@code @BatchNorm}), shape
     * {@code [6]}: updated by training-mode forward passes, never by an optimizer; it has no
     * gradient.
     */
    public Parameter bn1MovingMean() {
      return runtime.auxState("bn1_moving_mean");
    }

    /**
     * Auxiliary state {@code bn1_moving_var} of node {@code bn1} ({@code @BatchNorm}), shape
     * {@code [6]}: updated by training-mode forward passes, never by an optimizer; it has no
     * gradient.
     */
    public Parameter bn1MovingVar() {
      return runtime.auxState("bn1_moving_var");
    }

    /**
     * The learnable parameters, in MXNet's argument order.
     */
    @Override
    public List<Parameter> parameters() {
      return runtime.slots().stream().map(s -> runtime.param(s.name())).toList();
    }

    /**
     * The auxiliary states, in MXNet's order.
     */
    @Override
    public List<Parameter> auxiliaryStates() {
      return runtime.auxSlots().stream().map(a -> runtime.auxState(a.name())).toList();
    }

    /**
     * The parameter or auxiliary state called {@code name}, e.g. {@code conv1_weight}.
     *
     * @param name MXNet's name for it
     * @return typed access to it
     * @throws IllegalArgumentException if the model has none of that name
     */
    @Override
    public Parameter get(String name) {
      return switch (name) {
        case "conv1_weight" -> conv1Weight();
        case "conv1_bias" -> conv1Bias();
        case "bn1_gamma" -> bn1Gamma();
        case "bn1_beta" -> bn1Beta();
        case "conv2_weight" -> conv2Weight();
        case "conv2_bias" -> conv2Bias();
        case "hidden_weight" -> hiddenWeight();
        case "hidden_bias" -> hiddenBias();
        case "logits_weight" -> logitsWeight();
        case "logits_bias" -> logitsBias();
        case "bn1_moving_mean" -> bn1MovingMean();
        case "bn1_moving_var" -> bn1MovingVar();
        default -> throw new IllegalArgumentException(
            "LeNetModel has no parameter or auxiliary state '" + name + "'");
      };
    }
  }
}
