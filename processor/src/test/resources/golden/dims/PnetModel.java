package dims;

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
 * The trainable {@link Pnet} model on MXNet.
 *
 * <p>Executors are bound per set of input shapes on first use and cached; all of them share one set
 * of parameter and gradient arrays. Gradients add up over {@link #backward} calls until
 * {@link #update(float)} applies and zeroes them. {@link #close()} frees every native handle.
 *
 * <p>Its nodes as the processor checked them, with the output shape, parameter count and, per
 * example, the forward FLOPs and output bytes of each ({@link #SUMMARY} holds the same table):
 *
 * <pre>
 * node         output                    params  flops/ex  act/ex
 *   layer / MXNet op
 * image        [BATCH, 3, H, W]               0         0    12 B
 *   &#64;Input(shape = {BATCH, 3, H, W})
 *     variable
 * conv1        [BATCH, 10, H - 2,           280       550    40 B
 *               W - 2]
 *   &#64;Conv2D(filters = 10, kernel = 3)
 *     Convolution
 * prelu1       [BATCH, 10, H - 2,            10        20    40 B
 *               W - 2]
 *   &#64;PRelu
 *     LeakyReLU(prelu)
 * pool1        [BATCH, 10,                    0        40    40 B
 *               (H + 1) / 2 - 1,
 *               (W + 1) / 2 - 1]
 *   &#64;MaxPool(kernel = 2, stride = 2, convention = PoolConvention.FULL)
 *     Pooling(max)
 * conv2        [BATCH, 16,                 1456      2896    64 B
 *               (H + 1) / 2 - 3,
 *               (W + 1) / 2 - 3]
 *   &#64;Conv2D(filters = 16, kernel = 3)
 *     Convolution
 * prelu2       [BATCH, 16,                   16        32    64 B
 *               (H + 1) / 2 - 3,
 *               (W + 1) / 2 - 3]
 *   &#64;PRelu
 *     LeakyReLU(prelu)
 * conv3        [BATCH, 32,                 4640      9248   128 B
 *               (H + 1) / 2 - 5,
 *               (W + 1) / 2 - 5]
 *   &#64;Conv2D(filters = 32, kernel = 3)
 *     Convolution
 * prelu3       [BATCH, 32,                   32        64   128 B
 *               (H + 1) / 2 - 5,
 *               (W + 1) / 2 - 5]
 *   &#64;PRelu
 *     LeakyReLU(prelu)
 * scoreLogits  [BATCH, 2,                    66       130     8 B
 *               (H + 1) / 2 - 5,
 *               (W + 1) / 2 - 5]
 *   &#64;Conv2D(filters = 2, kernel = 1)
 *     Convolution
 * score        [BATCH, 2,                     0         6     8 B
 *               (H + 1) / 2 - 5,
 *               (W + 1) / 2 - 5]
 *   &#64;Softmax(axis = 1)
 *     softmax
 * box          [BATCH, 4,                   132       260    16 B
 *               (H + 1) / 2 - 5,
 *               (W + 1) / 2 - 5]
 *   &#64;Conv2D(filters = 4, kernel = 1)
 *     Convolution
 * total                                    6632    13.2 K   548 B
 * free dimensions H, W (the per-example figures count each free size as 1); the model needs:
 *   H &gt;= 12  declared: @FreeDim(min = 12) int H
 *   W &gt;= 12  declared: @FreeDim(min = 12) int W
 * </pre>
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class PnetModel implements KilnModel {
  /**
   * The model's name and layer table, as {@link #summary()} returns them: a constant, so that tools
   * can show it without creating a model, which starts MXNet.
   */
  public static final String SUMMARY = """
      Pnet
      node         output                    params  flops/ex  act/ex
        layer / MXNet op
      image        [BATCH, 3, H, W]               0         0    12 B
        @Input(shape = {BATCH, 3, H, W})
          variable
      conv1        [BATCH, 10, H - 2,           280       550    40 B
                    W - 2]
        @Conv2D(filters = 10, kernel = 3)
          Convolution
      prelu1       [BATCH, 10, H - 2,            10        20    40 B
                    W - 2]
        @PRelu
          LeakyReLU(prelu)
      pool1        [BATCH, 10,                    0        40    40 B
                    (H + 1) / 2 - 1,
                    (W + 1) / 2 - 1]
        @MaxPool(kernel = 2, stride = 2, convention = PoolConvention.FULL)
          Pooling(max)
      conv2        [BATCH, 16,                 1456      2896    64 B
                    (H + 1) / 2 - 3,
                    (W + 1) / 2 - 3]
        @Conv2D(filters = 16, kernel = 3)
          Convolution
      prelu2       [BATCH, 16,                   16        32    64 B
                    (H + 1) / 2 - 3,
                    (W + 1) / 2 - 3]
        @PRelu
          LeakyReLU(prelu)
      conv3        [BATCH, 32,                 4640      9248   128 B
                    (H + 1) / 2 - 5,
                    (W + 1) / 2 - 5]
        @Conv2D(filters = 32, kernel = 3)
          Convolution
      prelu3       [BATCH, 32,                   32        64   128 B
                    (H + 1) / 2 - 5,
                    (W + 1) / 2 - 5]
        @PRelu
          LeakyReLU(prelu)
      scoreLogits  [BATCH, 2,                    66       130     8 B
                    (H + 1) / 2 - 5,
                    (W + 1) / 2 - 5]
        @Conv2D(filters = 2, kernel = 1)
          Convolution
      score        [BATCH, 2,                     0         6     8 B
                    (H + 1) / 2 - 5,
                    (W + 1) / 2 - 5]
        @Softmax(axis = 1)
          softmax
      box          [BATCH, 4,                   132       260    16 B
                    (H + 1) / 2 - 5,
                    (W + 1) / 2 - 5]
        @Conv2D(filters = 4, kernel = 1)
          Convolution
      total                                    6632    13.2 K   548 B
      free dimensions H, W (the per-example figures count each free size as 1); the model needs:
        H >= 12  declared: @FreeDim(min = 12) int H
        W >= 12  declared: @FreeDim(min = 12) int W
      """;

  private static final List<InputSpec> INPUTS = List.of(
      new InputSpec("image", PnetGraph.IMAGE_SHAPE));

  private static final List<String> OUTPUTS = List.of("score", "box");

  private final ModelRuntime runtime;

  private final Params params;

  private PnetModel(ModelRuntime runtime) {
    this.runtime = runtime;
    this.params = new Params(runtime);
  }

  /**
   * A new model on the CPU with Xavier-initialised weights, zero biases, seed 0.
   *
   * @return the model, which the caller must close
   */
  public static PnetModel create() {
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
  public static PnetModel create(Init init, long seed) {
    return new PnetModel(new ModelRuntime("PnetModel", graph(false), init, seed));
  }

  /**
   * A new graph of {@code Pnet}, built by {@link PnetGraph}; with {@code training}, for training
   * against labels (the head as its training loss). The caller owns it.
   */
  private static Graph graph(boolean training) {
    try (GraphBuilder builder = new GraphBuilder("Pnet", training)) {
      return PnetGraph.build(builder);
    }
  }

  /**
   * Loads the checkpoint {@code prefix-0000.params} written by {@link #save}. Every parameter must
   * be present with its exact shape.
   *
   * @param prefix the checkpoint's path without {@code -0000.params}
   * @return the model, which the caller must close
   */
  public static PnetModel load(Path prefix) {
    PnetModel model = create(Init.constant(0f), 0L);
    try {
      model.runtime.loadParams(prefix);
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    return model;
  }

  /**
   * The generated class's simple name, {@code PnetModel}.
   */
  @Override
  public String name() {
    return "PnetModel";
  }

  /**
   * The inputs in declaration order, with their declared shapes: {@code image [BATCH, 3, H, W]}.
   */
  @Override
  public List<InputSpec> inputs() {
    return INPUTS;
  }

  /**
   * The names of the outputs in declaration order: {@code score}, {@code box}.
   */
  @Override
  public List<String> outputs() {
    return OUTPUTS;
  }

  /**
   * Runs the model on a batch, in the mode {@link #setTraining} chose.
   *
   * @param image input {@code image}, float32 of shape {@code [BATCH, 3, H, W]}
   * @return every output, in declaration order
   */
  public Outputs forward(NDArray image) {
    NDArray[] out = runtime.forward(image);
    return new Outputs(out[0], out[1]);
  }

  /**
   * Back-propagates through the last forward pass, which must have run in training mode. Parameter
   * gradients add up until the next update.
   *
   * @param dScore gradient of the loss with respect to output {@code score}, of its shape
   * @param dBox gradient of the loss with respect to output {@code box}, of its shape
   * @return the gradient of every input
   */
  public Gradients backward(NDArray dScore, NDArray dBox) {
    NDArray[] grads = runtime.backward(dScore, dBox);
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
   * @param image complete shape of input {@code image}, accepted by {@code [BATCH, 3, H, W]}
   * @return the typed executor
   */
  public PnetExec exec(Shape image) {
    return new PnetExec(runtime, runtime.executor(List.of(image)));
  }

  /**
   * False: PnetModel is not a classifier, because its last node box is @Conv2D(filters = 4, kernel
   * = 1), not a @Softmax.
   */
  @Override
  public boolean isClassifier() {
    return false;
  }

  /**
   * Not available: PnetModel is not a classifier: its last node box is @Conv2D(filters = 4, kernel
   * = 1), not a @Softmax.
   *
   * @throws UnsupportedOperationException always
   */
  @Override
  public Classifier classifier() {
    throw new UnsupportedOperationException( "PnetModel is not a classifier: its last node box is "
        + "@Conv2D(filters = 4, kernel = 1), not a @Softmax");
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
   * The outputs of one forward pass, in declaration order.
   *
   * @param score output {@code score}
   * @param box output {@code box}
   */
  public record Outputs(NDArray score, NDArray box) {
  }

  /**
   * The gradients of the inputs from one backward pass.
   *
   * @param image gradient of input {@code image}
   */
  public record Gradients(NDArray image) {
  }

  /**
   * Typed access to the parameters (and auxiliary states) of {@code Pnet}; reads and writes go to
   * the arrays every executor shares.
   */
  public static final class Params implements KilnModel.ModelParams {
    private final ModelRuntime runtime;

    private Params(ModelRuntime runtime) {
      this.runtime = runtime;
    }

    /**
     * Parameter {@code conv1_weight} of node {@code conv1}
     * ({@code @Conv2D(filters = 10, kernel = 3)}), shape {@code [10, 3, 3, 3]}.
     */
    public Parameter conv1Weight() {
      return runtime.param("conv1_weight");
    }

    /**
     * Parameter {@code conv1_bias} of node {@code conv1}
     * ({@code @Conv2D(filters = 10, kernel = 3)}), shape {@code [10]}.
     */
    public Parameter conv1Bias() {
      return runtime.param("conv1_bias");
    }

    /**
     * Parameter {@code prelu1_alpha} of node {@code prelu1} ({@code @PRelu}), shape {@code [10]}.
     */
    public Parameter prelu1Alpha() {
      return runtime.param("prelu1_alpha");
    }

    /**
     * Parameter {@code conv2_weight} of node {@code conv2}
     * ({@code @Conv2D(filters = 16, kernel = 3)}), shape {@code [16, 10, 3, 3]}.
     */
    public Parameter conv2Weight() {
      return runtime.param("conv2_weight");
    }

    /**
     * Parameter {@code conv2_bias} of node {@code conv2}
     * ({@code @Conv2D(filters = 16, kernel = 3)}), shape {@code [16]}.
     */
    public Parameter conv2Bias() {
      return runtime.param("conv2_bias");
    }

    /**
     * Parameter {@code prelu2_alpha} of node {@code prelu2} ({@code @PRelu}), shape {@code [16]}.
     */
    public Parameter prelu2Alpha() {
      return runtime.param("prelu2_alpha");
    }

    /**
     * Parameter {@code conv3_weight} of node {@code conv3}
     * ({@code @Conv2D(filters = 32, kernel = 3)}), shape {@code [32, 16, 3, 3]}.
     */
    public Parameter conv3Weight() {
      return runtime.param("conv3_weight");
    }

    /**
     * Parameter {@code conv3_bias} of node {@code conv3}
     * ({@code @Conv2D(filters = 32, kernel = 3)}), shape {@code [32]}.
     */
    public Parameter conv3Bias() {
      return runtime.param("conv3_bias");
    }

    /**
     * Parameter {@code prelu3_alpha} of node {@code prelu3} ({@code @PRelu}), shape {@code [32]}.
     */
    public Parameter prelu3Alpha() {
      return runtime.param("prelu3_alpha");
    }

    /**
     * Parameter {@code scoreLogits_weight} of node {@code scoreLogits}
     * ({@code @Conv2D(filters = 2, kernel = 1)}), shape {@code [2, 32, 1, 1]}.
     */
    public Parameter scoreLogitsWeight() {
      return runtime.param("scoreLogits_weight");
    }

    /**
     * Parameter {@code scoreLogits_bias} of node {@code scoreLogits}
     * ({@code @Conv2D(filters = 2, kernel = 1)}), shape {@code [2]}.
     */
    public Parameter scoreLogitsBias() {
      return runtime.param("scoreLogits_bias");
    }

    /**
     * Parameter {@code box_weight} of node {@code box} ({@code @Conv2D(filters = 4, kernel = 1)}),
     * shape {@code [4, 32, 1, 1]}.
     */
    public Parameter boxWeight() {
      return runtime.param("box_weight");
    }

    /**
     * Parameter {@code box_bias} of node {@code box} ({@code @Conv2D(filters = 4, kernel = 1)}),
     * shape {@code [4]}.
     */
    public Parameter boxBias() {
      return runtime.param("box_bias");
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
        case "prelu1_alpha" -> prelu1Alpha();
        case "conv2_weight" -> conv2Weight();
        case "conv2_bias" -> conv2Bias();
        case "prelu2_alpha" -> prelu2Alpha();
        case "conv3_weight" -> conv3Weight();
        case "conv3_bias" -> conv3Bias();
        case "prelu3_alpha" -> prelu3Alpha();
        case "scoreLogits_weight" -> scoreLogitsWeight();
        case "scoreLogits_bias" -> scoreLogitsBias();
        case "box_weight" -> boxWeight();
        case "box_bias" -> boxBias();
        default -> throw new IllegalArgumentException(
            "PnetModel has no parameter or auxiliary state '" + name + "'");
      };
    }
  }
}
