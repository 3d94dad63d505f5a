package heads;

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
 * The trainable {@link TwoHeads} model on MXNet.
 *
 * <p>Executors are bound per set of input shapes on first use and cached; all of them share one set
 * of parameter and gradient arrays. Gradients add up over {@link #backward} calls until
 * {@link #update(float)} applies and zeroes them. {@link #close()} frees every native handle.
 *
 * <p>Its nodes as the processor checked them, with the output shape, parameter count and, per
 * example, the forward FLOPs and output bytes of each ({@link #SUMMARY} holds the same table):
 *
 * <pre>
 * node      layer / MXNet op                         output         params  flops/ex  act/ex
 * features  @Input(shape = {BATCH, 3, 4})            [BATCH, 3, 4]       0         0    48 B
 *             variable
 * context   @Input(shape = {BATCH, 8})               [BATCH, 8]          0         0    32 B
 *             variable
 * base      @Frozen @Dense(units = 8,                [BATCH, 8]        104       208    32 B
 *               activation = Act.TANH)
 *             FullyConnected+Activation(tanh)
 * mixed     @Add                                     [BATCH, 8]          0         8    32 B
 *             elemwise_add
 * normed    @LayerNorm(eps = 1.0E-6)                 [BATCH, 8]         16        56    32 B
 *             LayerNorm
 * left      @Dense(units = 2)                        [BATCH, 2]         18        34     8 B
 *             FullyConnected
 * right     @Dense(units = 3, noBias = true)         [BATCH, 3]         24        48    12 B
 *             FullyConnected
 * total                                                                162       354   196 B
 * </pre>
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class TwoHeadsModel implements KilnModel {
  /**
   * The model's name and layer table, as {@link #summary()} returns them: a constant, so that tools
   * can show it without creating a model, which starts MXNet.
   */
  public static final String SUMMARY = """
      TwoHeads
      node      layer / MXNet op                         output         params  flops/ex  act/ex
      features  @Input(shape = {BATCH, 3, 4})            [BATCH, 3, 4]       0         0    48 B
                  variable
      context   @Input(shape = {BATCH, 8})               [BATCH, 8]          0         0    32 B
                  variable
      base      @Frozen @Dense(units = 8,                [BATCH, 8]        104       208    32 B
                    activation = Act.TANH)
                  FullyConnected+Activation(tanh)
      mixed     @Add                                     [BATCH, 8]          0         8    32 B
                  elemwise_add
      normed    @LayerNorm(eps = 1.0E-6)                 [BATCH, 8]         16        56    32 B
                  LayerNorm
      left      @Dense(units = 2)                        [BATCH, 2]         18        34     8 B
                  FullyConnected
      right     @Dense(units = 3, noBias = true)         [BATCH, 3]         24        48    12 B
                  FullyConnected
      total                                                                162       354   196 B
      """;

  private static final List<InputSpec> INPUTS = List.of(
      new InputSpec("features", TwoHeadsGraph.FEATURES_SHAPE),
      new InputSpec("context", TwoHeadsGraph.CONTEXT_SHAPE));

  private static final List<String> OUTPUTS = List.of("left", "right");

  private final ModelRuntime runtime;

  private final Params params;

  private TwoHeadsModel(ModelRuntime runtime) {
    this.runtime = runtime;
    this.params = new Params(runtime);
  }

  /**
   * A new model on the CPU with Xavier-initialised weights, zero biases, seed 0.
   *
   * @return the model, which the caller must close
   */
  public static TwoHeadsModel create() {
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
  public static TwoHeadsModel create(Init init, long seed) {
    return new TwoHeadsModel(new ModelRuntime("TwoHeadsModel", graph(false), init, seed));
  }

  /**
   * A new graph of {@code TwoHeads}, built by {@link TwoHeadsGraph}; with {@code training}, for
   * training against labels (the head as its training loss). The caller owns it.
   */
  private static Graph graph(boolean training) {
    try (GraphBuilder builder = new GraphBuilder("TwoHeads", training)) {
      return TwoHeadsGraph.build(builder);
    }
  }

  /**
   * Loads the checkpoint {@code prefix-0000.params} written by {@link #save}. Every parameter must
   * be present with its exact shape.
   *
   * @param prefix the checkpoint's path without {@code -0000.params}
   * @return the model, which the caller must close
   */
  public static TwoHeadsModel load(Path prefix) {
    TwoHeadsModel model = create(Init.constant(0f), 0L);
    try {
      model.runtime.loadParams(prefix);
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    return model;
  }

  /**
   * The generated class's simple name, {@code TwoHeadsModel}.
   */
  @Override
  public String name() {
    return "TwoHeadsModel";
  }

  /**
   * The inputs in declaration order, with their declared shapes: {@code features [BATCH, 3, 4]},
   * {@code context [BATCH, 8]}.
   */
  @Override
  public List<InputSpec> inputs() {
    return INPUTS;
  }

  /**
   * The names of the outputs in declaration order: {@code left}, {@code right}.
   */
  @Override
  public List<String> outputs() {
    return OUTPUTS;
  }

  /**
   * Runs the model on a batch, in the mode {@link #setTraining} chose.
   *
   * @param features input {@code features}, float32 of shape {@code [BATCH, 3, 4]}
   * @param context input {@code context}, float32 of shape {@code [BATCH, 8]}
   * @return every output, in declaration order
   */
  public Outputs forward(NDArray features, NDArray context) {
    NDArray[] out = runtime.forward(features, context);
    return new Outputs(out[0], out[1]);
  }

  /**
   * Back-propagates through the last forward pass, which must have run in training mode. Parameter
   * gradients add up until the next update.
   *
   * @param dLeft gradient of the loss with respect to output {@code left}, of its shape
   * @param dRight gradient of the loss with respect to output {@code right}, of its shape
   * @return the gradient of every input
   */
  public Gradients backward(NDArray dLeft, NDArray dRight) {
    NDArray[] grads = runtime.backward(dLeft, dRight);
    return new Gradients(grads[0], grads[1]);
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
   * @param features complete shape of input {@code features}, accepted by {@code [BATCH, 3, 4]}
   * @param context complete shape of input {@code context}, accepted by {@code [BATCH, 8]}
   * @return the typed executor
   */
  public TwoHeadsExec exec(Shape features, Shape context) {
    return new TwoHeadsExec(runtime, runtime.executor(List.of(features, context)));
  }

  /**
   * False: TwoHeadsModel is not a classifier, because its last node right is @Dense(units = 3,
   * noBias = true), not a @Softmax.
   */
  @Override
  public boolean isClassifier() {
    return false;
  }

  /**
   * Not available: TwoHeadsModel is not a classifier: its last node right is @Dense(units = 3,
   * noBias = true), not a @Softmax.
   *
   * @throws UnsupportedOperationException always
   */
  @Override
  public Classifier classifier() {
    throw new UnsupportedOperationException(
        "TwoHeadsModel is not a classifier: its last node right is "
        + "@Dense(units = 3, noBias = true), not a @Softmax");
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
   * @param left output {@code left}
   * @param right output {@code right}
   */
  public record Outputs(NDArray left, NDArray right) {
  }

  /**
   * The gradients of the inputs from one backward pass.
   *
   * @param features gradient of input {@code features}
   * @param context gradient of input {@code context}
   */
  public record Gradients(NDArray features, NDArray context) {
  }

  /**
   * Typed access to the parameters (and auxiliary states) of {@code TwoHeads}; reads and writes go
   * to the arrays every executor shares.
   */
  public static final class Params implements KilnModel.ModelParams {
    private final ModelRuntime runtime;

    private Params(ModelRuntime runtime) {
      this.runtime = runtime;
    }

    /**
     * Parameter {@code base_weight} of node {@code base}
     * ({@code @Dense(units = 8, activation = Act.TANH)}), shape {@code [8, 12]}; frozen: no update
     * changes it.
     */
    public Parameter baseWeight() {
      return runtime.param("base_weight");
    }

    /**
     * Parameter {@code base_bias} of node {@code base}
     * ({@code @Dense(units = 8, activation = Act.TANH)}), shape {@code [8]}; frozen: no update
     * changes it.
     */
    public Parameter baseBias() {
      return runtime.param("base_bias");
    }

    /**
     * Parameter {@code normed_gamma} of node {@code normed} ({@code @LayerNorm(eps = 1.0E-6)}),
     * shape {@code [8]}.
     */
    public Parameter normedGamma() {
      return runtime.param("normed_gamma");
    }

    /**
     * Parameter {@code normed_beta} of node {@code normed} ({@code @LayerNorm(eps = 1.0E-6)}),
     * shape {@code [8]}.
     */
    public Parameter normedBeta() {
      return runtime.param("normed_beta");
    }

    /**
     * Parameter {@code left_weight} of node {@code left} ({@code @Dense(units = 2)}), shape
     * {@code [2, 8]}.
     */
    public Parameter leftWeight() {
      return runtime.param("left_weight");
    }

    /**
     * Parameter {@code left_bias} of node {@code left} ({@code @Dense(units = 2)}), shape
     * {@code [2]}.
     */
    public Parameter leftBias() {
      return runtime.param("left_bias");
    }

    /**
     * Parameter {@code right_weight} of node {@code right}
     * ({@code @Dense(units = 3, noBias = true)}), shape {@code [3, 8]}.
     */
    public Parameter rightWeight() {
      return runtime.param("right_weight");
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
     * The parameter or auxiliary state called {@code name}, e.g. {@code base_weight}.
     *
     * @param name MXNet's name for it
     * @return typed access to it
     * @throws IllegalArgumentException if the model has none of that name
     */
    @Override
    public Parameter get(String name) {
      return switch (name) {
        case "base_weight" -> baseWeight();
        case "base_bias" -> baseBias();
        case "normed_gamma" -> normedGamma();
        case "normed_beta" -> normedBeta();
        case "left_weight" -> leftWeight();
        case "left_bias" -> leftBias();
        case "right_weight" -> rightWeight();
        default -> throw new IllegalArgumentException(
            "TwoHeadsModel has no parameter or auxiliary state '" + name + "'");
      };
    }
  }
}
