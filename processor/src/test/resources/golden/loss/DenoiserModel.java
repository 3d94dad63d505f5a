package loss;

import ai.djl.ndarray.NDArray;
import dev.kiln.ops.LossOp;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.train.Classifier;
import dev.kiln.runtime.train.Trainer;
import java.nio.file.Path;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * The trainable {@link Denoiser} model on MXNet.
 *
 * <p>Executors are bound per set of input shapes on first use and cached; all of them share one set
 * of parameter and gradient arrays. Gradients add up over {@link #backward} calls until
 * {@link #update(float)} applies and zeroes them. {@link #close()} frees every native handle.
 *
 * <p>Its nodes as the processor checked them, with the output shape, parameter count and, per
 * example, the forward FLOPs and output bytes of each ({@link #SUMMARY} holds the same table):
 *
 * <pre>
 * node   layer / MXNet op                         output            params  flops/ex  act/ex
 * noisy  @Input(shape = {BATCH, 1, 8, 8})         [BATCH, 1, 8, 8]       0         0   256 B
 *          variable
 * down   @Conv2D(filters = 4, kernel = 2,         [BATCH, 4, 4, 4]      20       640   256 B
 *            stride = 2, activation = Act.RELU)
 *          Convolution+Activation(relu)
 * up     @Deconv2D(filters = 1, kernel = 2,       [BATCH, 1, 8, 8]      17       576   256 B
 *            stride = 2)
 *          Deconvolution
 * clean  @L2Loss                                  [BATCH, 1, 8, 8]       0        64   256 B
 *          LinearRegressionOutput
 * total                                                                 37      1280  1024 B
 * </pre>
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class DenoiserModel implements KilnModel {
  /**
   * The model's name and layer table, as {@link #summary()} returns them: a constant, so that tools
   * can show it without creating a model, which starts MXNet.
   */
  public static final String SUMMARY = """
      Denoiser
      node   layer / MXNet op                         output            params  flops/ex  act/ex
      noisy  @Input(shape = {BATCH, 1, 8, 8})         [BATCH, 1, 8, 8]       0         0   256 B
               variable
      down   @Conv2D(filters = 4, kernel = 2,         [BATCH, 4, 4, 4]      20       640   256 B
                 stride = 2, activation = Act.RELU)
               Convolution+Activation(relu)
      up     @Deconv2D(filters = 1, kernel = 2,       [BATCH, 1, 8, 8]      17       576   256 B
                 stride = 2)
               Deconvolution
      clean  @L2Loss                                  [BATCH, 1, 8, 8]       0        64   256 B
               LinearRegressionOutput
      total                                                                 37      1280  1024 B
      """;

  private static final List<InputSpec> INPUTS = List.of(
      new InputSpec("noisy", DenoiserGraph.NOISY_SHAPE));

  private static final List<String> OUTPUTS = List.of("clean");

  private final ModelRuntime runtime;

  private final Params params;

  private DenoiserModel(ModelRuntime runtime) {
    this.runtime = runtime;
    this.params = new Params(runtime);
  }

  /**
   * A new model on the CPU with Xavier-initialised weights, zero biases, seed 0.
   *
   * @return the model, which the caller must close
   */
  public static DenoiserModel create() {
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
  public static DenoiserModel create(Init init, long seed) {
    return new DenoiserModel(new ModelRuntime("DenoiserModel", graph(false), init, seed));
  }

  /**
   * A new graph of {@code Denoiser}, built by {@link DenoiserGraph}; with {@code training}, for
   * training against labels (the head as its training loss). The caller owns it.
   */
  private static Graph graph(boolean training) {
    try (GraphBuilder builder = new GraphBuilder("Denoiser", training)) {
      return DenoiserGraph.build(builder);
    }
  }

  /**
   * Loads the checkpoint {@code prefix-0000.params} written by {@link #save}. Every parameter must
   * be present with its exact shape.
   *
   * @param prefix the checkpoint's path without {@code -0000.params}
   * @return the model, which the caller must close
   */
  public static DenoiserModel load(Path prefix) {
    DenoiserModel model = create(Init.constant(0f), 0L);
    try {
      model.runtime.loadParams(prefix);
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    return model;
  }

  /**
   * The generated class's simple name, {@code DenoiserModel}.
   */
  @Override
  public String name() {
    return "DenoiserModel";
  }

  /**
   * The inputs in declaration order, with their declared shapes: {@code noisy [BATCH, 1, 8, 8]}.
   */
  @Override
  public List<InputSpec> inputs() {
    return INPUTS;
  }

  /**
   * The names of the outputs in declaration order: {@code clean}.
   */
  @Override
  public List<String> outputs() {
    return OUTPUTS;
  }

  /**
   * Runs the model on a batch, in the mode {@link #setTraining} chose.
   *
   * @param noisy input {@code noisy}, float32 of shape {@code [BATCH, 1, 8, 8]}
   * @return output {@code clean}, of shape {@code [BATCH, 1, 8, 8]}
   */
  public NDArray forward(NDArray noisy) {
    return runtime.forward(noisy)[0];
  }

  /**
   * Back-propagates through the last forward pass, which must have run in training mode. Parameter
   * gradients add up until the next update.
   *
   * @param dClean gradient of the loss with respect to output {@code clean}, of its shape
   * @return the gradient of every input
   */
  public Gradients backward(NDArray dClean) {
    NDArray[] grads = runtime.backward(dClean);
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
   * @param noisy complete shape of input {@code noisy}, accepted by {@code [BATCH, 1, 8, 8]}
   * @return the typed executor
   */
  public DenoiserExec exec(Shape noisy) {
    return new DenoiserExec(runtime, runtime.executor(List.of(noisy)));
  }

  /**
   * False: DenoiserModel is not a classifier, because its last node clean is the loss head @L2Loss,
   * not a @Softmax; train it with trainer().
   */
  @Override
  public boolean isClassifier() {
    return false;
  }

  /**
   * Not available: DenoiserModel is not a classifier: its last node clean is the loss head @L2Loss,
   * not a @Softmax; train it with trainer().
   *
   * @throws UnsupportedOperationException always
   */
  @Override
  public Classifier classifier() {
    throw new UnsupportedOperationException(
        "DenoiserModel is not a classifier: its last node clean is the loss "
        + "head @L2Loss, not a @Softmax; train it with trainer()");
  }

  /**
   * True: {@link #trainer()} trains the loss head {@code clean}.
   */
  @Override
  public boolean hasTrainer() {
    return true;
  }

  /**
   * The trainer of this model: node {@code clean} ({@code @L2Loss}) trained as MXNet's
   * {@code MakeLoss} against targets on this model's own parameters.
   */
  @Override
  public Trainer trainer() {
    return runtime.trainer(LossOp.Kind.L2, () -> graph(true));
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
   * @param noisy gradient of input {@code noisy}
   */
  public record Gradients(NDArray noisy) {
  }

  /**
   * Typed access to the parameters (and auxiliary states) of {@code Denoiser}; reads and writes go
   * to the arrays every executor shares.
   */
  public static final class Params implements KilnModel.ModelParams {
    private final ModelRuntime runtime;

    private Params(ModelRuntime runtime) {
      this.runtime = runtime;
    }

    /**
     * Parameter {@code down_weight} of node {@code down}
     * ({@code @Conv2D(filters = 4, kernel = 2, stride = 2, activation = Act.RELU)}), shape
     * {@code [4, 1, 2, 2]}.
     */
    public Parameter downWeight() {
      return runtime.param("down_weight");
    }

    /**
     * Parameter {@code down_bias} of node {@code down}
     * ({@code @Conv2D(filters = 4, kernel = 2, stride = 2, activation = Act.RELU)}), shape
     * {@code [4]}.
     */
    public Parameter downBias() {
      return runtime.param("down_bias");
    }

    /**
     * Parameter {@code up_weight} of node {@code up}
     * ({@code @Deconv2D(filters = 1, kernel = 2, stride = 2)}), shape {@code [4, 1, 2, 2]}.
     */
    public Parameter upWeight() {
      return runtime.param("up_weight");
    }

    /**
     * Parameter {@code up_bias} of node {@code up}
     * ({@code @Deconv2D(filters = 1, kernel = 2, stride = 2)}), shape {@code [1]}.
     */
    public Parameter upBias() {
      return runtime.param("up_bias");
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
     * The parameter or auxiliary state called {@code name}, e.g. {@code down_weight}.
     *
     * @param name MXNet's name for it
     * @return typed access to it
     * @throws IllegalArgumentException if the model has none of that name
     */
    @Override
    public Parameter get(String name) {
      return switch (name) {
        case "down_weight" -> downWeight();
        case "down_bias" -> downBias();
        case "up_weight" -> upWeight();
        case "up_bias" -> upBias();
        default -> throw new IllegalArgumentException(
            "DenoiserModel has no parameter or auxiliary state '" + name + "'");
      };
    }
  }
}
