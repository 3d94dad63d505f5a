package cells;

import ai.djl.ndarray.NDArray;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.exec.RecurrentParameter;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.InputSpec;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.train.Classifier;
import java.nio.file.Path;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * The trainable {@link AnyStepsNet} model on MXNet.
 *
 * <p>Executors are bound per set of input shapes on first use and cached; all of them share one set
 * of parameter and gradient arrays. Its recurrent cell reads {@code STEPS} steps: the first
 * executor of a new number of steps also unrolls a graph of its own for it, kept for that length,
 * over the same parameters. Gradients add up over {@link #backward} calls until
 * {@link #update(float)} applies and zeroes them. {@link #close()} frees every native handle.
 *
 * <p>Its nodes as the processor checked them, with the output shape, parameter count and, per
 * example, the forward FLOPs and output bytes of each ({@link #SUMMARY} holds the same table):
 *
 * <pre>
 * node    layer / MXNet op                      output              params  flops/ex  act/ex
 * x       @Input(shape = {BATCH, STEPS, 3})     [BATCH, STEPS, 3]        0         0    12 B
 *           variable
 * states  @GruCell(hidden = 4)                  [BATCH, STEPS, 4]*     100         ?    16 B
 *           custom cell GruCell, unrolled
 * last    @Gru(units = 5,                       [BATCH, 5]             165       330    20 B
 *             returnSequences = false)
 *           RNN(gru)
 * logits  @Dense(units = 3)                     [BATCH, 3]              18        33    12 B
 *           FullyConnected
 * probs   @Softmax                              [BATCH, 3]               0         9    12 B
 *           softmax
 * total                                                                283    &gt;= 372    72 B
 * * declared by the custom layer; its forward body is traced and checked when the graph is built
 * </pre>
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class AnyStepsNetModel implements KilnModel {
  /**
   * The model's name and layer table, as {@link #summary()} returns them: a constant, so that tools
   * can show it without creating a model, which starts MXNet.
   */
  public static final String SUMMARY = """
      AnyStepsNet
      node    layer / MXNet op                      output              params  flops/ex  act/ex
      x       @Input(shape = {BATCH, STEPS, 3})     [BATCH, STEPS, 3]        0         0    12 B
                variable
      states  @GruCell(hidden = 4)                  [BATCH, STEPS, 4]*     100         ?    16 B
                custom cell GruCell, unrolled
      last    @Gru(units = 5,                       [BATCH, 5]             165       330    20 B
                  returnSequences = false)
                RNN(gru)
      logits  @Dense(units = 3)                     [BATCH, 3]              18        33    12 B
                FullyConnected
      probs   @Softmax                              [BATCH, 3]               0         9    12 B
                softmax
      total                                                                283    >= 372    72 B
      * declared by the custom layer; its forward body is traced and checked when the graph is built
      """;

  private static final List<InputSpec> INPUTS = List.of(
      new InputSpec("x", AnyStepsNetGraph.X_SHAPE));

  private static final List<String> OUTPUTS = List.of("probs");

  private final ModelRuntime runtime;

  private final Params params;

  private AnyStepsNetModel(ModelRuntime runtime) {
    this.runtime = runtime;
    this.params = new Params(runtime);
  }

  /**
   * A new model on the CPU with Xavier-initialised weights, zero biases, seed 0.
   *
   * @return the model, which the caller must close
   * @throws dev.kiln.runtime.graph.ModelException if the forward body of custom layer
   *     {@code @GruCell(hidden = 4)} (node {@code states}) does not fit the shapes it declares,
   *     which only tracing it when the graph is built can tell
   */
  public static AnyStepsNetModel create() {
    return create(Init.xavier(), 0L);
  }

  /**
   * A new model whose weights {@code init} fills from {@code seed}; biases start at zero. The same
   * seed gives the same parameters.
   *
   * @param init fills the weights
   * @param seed seeds {@code init}
   * @return the model, which the caller must close
   * @throws dev.kiln.runtime.graph.ModelException if the forward body of custom layer
   *     {@code @GruCell(hidden = 4)} (node {@code states}) does not fit the shapes it declares,
   *     which only tracing it when the graph is built can tell
   */
  public static AnyStepsNetModel create(Init init, long seed) {
    return new AnyStepsNetModel(new ModelRuntime("AnyStepsNetModel", graph(false), init, seed));
  }

  /**
   * A new graph of {@code AnyStepsNet}, built by {@link AnyStepsNetGraph}; with {@code training},
   * for training against labels (the head as its training loss). The caller owns it. It is unrolled
   * over one step; executors bound for other numbers of steps unroll graphs of their own, over the
   * same parameters.
   */
  private static Graph graph(boolean training) {
    return graph(training, 1);
  }

  /**
   * A new graph of {@code AnyStepsNet} for inputs of {@code steps} steps, the recurrent cell of
   * node {@code states} unrolled over them; with {@code training}, for training against labels. The
   * caller owns it.
   */
  private static Graph graph(boolean training, int steps) {
    try (GraphBuilder builder =
        new GraphBuilder("AnyStepsNet", training, steps, s -> graph(training, s))) {
      return AnyStepsNetGraph.build(builder);
    }
  }

  /**
   * Loads the checkpoint {@code prefix-0000.params} written by {@link #save}. Every parameter must
   * be present with its exact shape.
   *
   * @param prefix the checkpoint's path without {@code -0000.params}
   * @return the model, which the caller must close
   * @throws dev.kiln.runtime.graph.ModelException if the forward body of custom layer
   *     {@code @GruCell(hidden = 4)} (node {@code states}) does not fit the shapes it declares,
   *     which only tracing it when the graph is built can tell
   */
  public static AnyStepsNetModel load(Path prefix) {
    AnyStepsNetModel model = create(Init.constant(0f), 0L);
    try {
      model.runtime.loadParams(prefix);
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    return model;
  }

  /**
   * The generated class's simple name, {@code AnyStepsNetModel}.
   */
  @Override
  public String name() {
    return "AnyStepsNetModel";
  }

  /**
   * The inputs in declaration order, with their declared shapes: {@code x [BATCH, STEPS, 3]}.
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
   * @param x input {@code x}, float32 of shape {@code [BATCH, STEPS, 3]}
   * @return output {@code probs}, of shape {@code [BATCH, 3]}
   */
  public NDArray forward(NDArray x) {
    return runtime.forward(x)[0];
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
   * @param x complete shape of input {@code x}, accepted by {@code [BATCH, STEPS, 3]}
   * @return the typed executor
   */
  public AnyStepsNetExec exec(Shape x) {
    return new AnyStepsNetExec(runtime, runtime.executor(List.of(x)));
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
   * @param x gradient of input {@code x}
   */
  public record Gradients(NDArray x) {
  }

  /**
   * Typed access to the parameters (and auxiliary states) of {@code AnyStepsNet}; reads and writes
   * go to the arrays every executor shares.
   */
  public static final class Params implements KilnModel.ModelParams {
    private final ModelRuntime runtime;

    private Params(ModelRuntime runtime) {
      this.runtime = runtime;
    }

    /**
     * Parameter {@code states_wxr} of node {@code states} ({@code @GruCell(hidden = 4)}), shape
     * {@code [3, 4]}.
     */
    public Parameter statesWxr() {
      return runtime.param("states_wxr");
    }

    /**
     * Parameter {@code states_wxz} of node {@code states} ({@code @GruCell(hidden = 4)}), shape
     * {@code [3, 4]}.
     */
    public Parameter statesWxz() {
      return runtime.param("states_wxz");
    }

    /**
     * Parameter {@code states_wxn} of node {@code states} ({@code @GruCell(hidden = 4)}), shape
     * {@code [3, 4]}.
     */
    public Parameter statesWxn() {
      return runtime.param("states_wxn");
    }

    /**
     * Parameter {@code states_whr} of node {@code states} ({@code @GruCell(hidden = 4)}), shape
     * {@code [4, 4]}.
     */
    public Parameter statesWhr() {
      return runtime.param("states_whr");
    }

    /**
     * Parameter {@code states_whz} of node {@code states} ({@code @GruCell(hidden = 4)}), shape
     * {@code [4, 4]}.
     */
    public Parameter statesWhz() {
      return runtime.param("states_whz");
    }

    /**
     * Parameter {@code states_whn} of node {@code states} ({@code @GruCell(hidden = 4)}), shape
     * {@code [4, 4]}.
     */
    public Parameter statesWhn() {
      return runtime.param("states_whn");
    }

    /**
     * Parameter {@code states_br} of node {@code states} ({@code @GruCell(hidden = 4)}), shape
     * {@code [4]}.
     */
    public Parameter statesBr() {
      return runtime.param("states_br");
    }

    /**
     * Parameter {@code states_bz} of node {@code states} ({@code @GruCell(hidden = 4)}), shape
     * {@code [4]}.
     */
    public Parameter statesBz() {
      return runtime.param("states_bz");
    }

    /**
     * Parameter {@code states_bxn} of node {@code states} ({@code @GruCell(hidden = 4)}), shape
     * {@code [4]}.
     */
    public Parameter statesBxn() {
      return runtime.param("states_bxn");
    }

    /**
     * Parameter {@code states_bhn} of node {@code states} ({@code @GruCell(hidden = 4)}), shape
     * {@code [4]}.
     */
    public Parameter statesBhn() {
      return runtime.param("states_bhn");
    }

    /**
     * Parameter {@code last_parameters} of node {@code last}
     * ({@code @Gru(units = 5, returnSequences = false)}), shape {@code [165]}.
     */
    public Parameter lastParameters() {
      return runtime.param("last_parameters");
    }

    /**
     * Parameter {@code logits_weight} of node {@code logits} ({@code @Dense(units = 3)}), shape
     * {@code [3, 5]}.
     */
    public Parameter logitsWeight() {
      return runtime.param("logits_weight");
    }

    /**
     * Parameter {@code logits_bias} of node {@code logits} ({@code @Dense(units = 3)}), shape
     * {@code [3]}.
     */
    public Parameter logitsBias() {
      return runtime.param("logits_bias");
    }

    /**
     * Parameter {@code last_parameters} of node {@code last}
     * ({@code @Gru(units = 5, returnSequences = false)}) gate by gate: the weights and biases of
     * one layer, direction and gate, each in its own shape.
     */
    public RecurrentParameter lastGates() {
      return runtime.recurrent("last_parameters");
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
     * The parameter or auxiliary state called {@code name}, e.g. {@code states_wxr}.
     *
     * @param name MXNet's name for it
     * @return typed access to it
     * @throws IllegalArgumentException if the model has none of that name
     */
    @Override
    public Parameter get(String name) {
      return switch (name) {
        case "states_wxr" -> statesWxr();
        case "states_wxz" -> statesWxz();
        case "states_wxn" -> statesWxn();
        case "states_whr" -> statesWhr();
        case "states_whz" -> statesWhz();
        case "states_whn" -> statesWhn();
        case "states_br" -> statesBr();
        case "states_bz" -> statesBz();
        case "states_bxn" -> statesBxn();
        case "states_bhn" -> statesBhn();
        case "last_parameters" -> lastParameters();
        case "logits_weight" -> logitsWeight();
        case "logits_bias" -> logitsBias();
        default -> throw new IllegalArgumentException(
            "AnyStepsNetModel has no parameter or auxiliary state '" + name + "'");
      };
    }
  }
}
