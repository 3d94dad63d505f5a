package demo;

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
 * The trainable {@link FashionMlp} model on MXNet.
 *
 * <p>Executors are bound per set of input shapes on first use and cached; all of them share one set
 * of parameter and gradient arrays. Gradients add up over {@link #backward} calls until
 * {@link #update(float)} applies and zeroes them. {@link #close()} frees every native handle.
 *
 * <p>Its nodes as the processor checked them, with the output shape, parameter count and, per
 * example, the forward FLOPs and output bytes of each ({@link #SUMMARY} holds the same table):
 *
 * <pre>
 * node    layer / MXNet op                            output        params  flops/ex  act/ex
 * pixels  @Input(shape = {BATCH, 784})                [BATCH, 784]       0         0  3136 B
 *           variable
 * hidden  @Dense(units = 128, activation = Act.RELU)  [BATCH, 128]  100480   201.0 K   512 B
 *           FullyConnected+Activation(relu)
 * logits  @Dense(units = 10)                          [BATCH, 10]     1290      2570    40 B
 *           FullyConnected
 * probs   @Softmax                                    [BATCH, 10]        0        30    40 B
 *           softmax
 * total                                                             101770   203.6 K  3728 B
 * </pre>
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class FashionMlpModel implements KilnModel {
  /**
   * The model's name and layer table, as {@link #summary()} returns them: a constant, so that tools
   * can show it without creating a model, which starts MXNet.
   */
  public static final String SUMMARY = """
      FashionMlp
      node    layer / MXNet op                            output        params  flops/ex  act/ex
      pixels  @Input(shape = {BATCH, 784})                [BATCH, 784]       0         0  3136 B
                variable
      hidden  @Dense(units = 128, activation = Act.RELU)  [BATCH, 128]  100480   201.0 K   512 B
                FullyConnected+Activation(relu)
      logits  @Dense(units = 10)                          [BATCH, 10]     1290      2570    40 B
                FullyConnected
      probs   @Softmax                                    [BATCH, 10]        0        30    40 B
                softmax
      total                                                             101770   203.6 K  3728 B
      """;

  private static final List<InputSpec> INPUTS = List.of(
      new InputSpec("pixels", FashionMlpGraph.PIXELS_SHAPE));

  private static final List<String> OUTPUTS = List.of("probs");

  private final ModelRuntime runtime;

  private final Params params;

  private FashionMlpModel(ModelRuntime runtime) {
    this.runtime = runtime;
    this.params = new Params(runtime);
  }

  /**
   * A new model on the CPU with Xavier-initialised weights, zero biases, seed 0.
   *
   * @return the model, which the caller must close
   */
  public static FashionMlpModel create() {
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
  public static FashionMlpModel create(Init init, long seed) {
    return new FashionMlpModel(new ModelRuntime("FashionMlpModel", graph(false), init, seed));
  }

  /**
   * A new graph of {@code FashionMlp}, built by {@link FashionMlpGraph}; with {@code training}, for
   * training against labels (the head as its training loss). The caller owns it.
   */
  private static Graph graph(boolean training) {
    try (GraphBuilder builder = new GraphBuilder("FashionMlp", training)) {
      return FashionMlpGraph.build(builder);
    }
  }

  /**
   * Loads the checkpoint {@code prefix-0000.params} written by {@link #save}. Every parameter must
   * be present with its exact shape.
   *
   * @param prefix the checkpoint's path without {@code -0000.params}
   * @return the model, which the caller must close
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
   * The generated class's simple name, {@code FashionMlpModel}.
   */
  @Override
  public String name() {
    return "FashionMlpModel";
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
  public FashionMlpExec exec(Shape pixels) {
    return new FashionMlpExec(runtime, runtime.executor(List.of(pixels)));
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
   * Typed access to the parameters (and auxiliary states) of {@code FashionMlp}; reads and writes
   * go to the arrays every executor shares.
   */
  public static final class Params implements KilnModel.ModelParams {
    private final ModelRuntime runtime;

    private Params(ModelRuntime runtime) {
      this.runtime = runtime;
    }

    /**
     * Parameter {@code hidden_weight} of node {@code hidden}
     * ({@code @Dense(units = 128, activation = Act.RELU)}), shape {@code [128, 784]}.
     */
    public Parameter hiddenWeight() {
      return runtime.param("hidden_weight");
    }

    /**
     * Parameter {@code hidden_bias} of node {@code hidden}
     * ({@code @Dense(units = 128, activation = Act.RELU)}), shape {@code [128]}.
     */
    public Parameter hiddenBias() {
      return runtime.param("hidden_bias");
    }

    /**
     * Parameter {@code logits_weight} of node {@code logits} ({@code @Dense(units = 10)}), shape
     * {@code [10, 128]}.
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
     * The parameter or auxiliary state called {@code name}, e.g. {@code hidden_weight}.
     *
     * @param name MXNet's name for it
     * @return typed access to it
     * @throws IllegalArgumentException if the model has none of that name
     */
    @Override
    public Parameter get(String name) {
      return switch (name) {
        case "hidden_weight" -> hiddenWeight();
        case "hidden_bias" -> hiddenBias();
        case "logits_weight" -> logitsWeight();
        case "logits_bias" -> logitsBias();
        default -> throw new IllegalArgumentException(
            "FashionMlpModel has no parameter or auxiliary state '" + name + "'");
      };
    }
  }
}
