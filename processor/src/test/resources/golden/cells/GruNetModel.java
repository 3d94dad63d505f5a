package cells;

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
 * The trainable {@link GruNet} model on MXNet.
 *
 * <p>Executors are bound per set of input shapes on first use and cached; all of them share one set
 * of parameter and gradient arrays. Gradients add up over {@link #backward} calls until
 * {@link #update(float)} applies and zeroes them. {@link #close()} frees every native handle.
 *
 * <p>Its nodes as the processor checked them, with the output shape, parameter count and, per
 * example, the forward FLOPs and output bytes of each ({@link #SUMMARY} holds the same table):
 *
 * <pre>
 * node    layer / MXNet op                    output          params  flops/ex  act/ex
 * x       @Input(shape = {BATCH, 5, 3})       [BATCH, 5, 3]        0         0    60 B
 *           variable
 * states  @GruCell(hidden = 4)                [BATCH, 5, 4]*     100         ?    80 B
 *           custom cell GruCell, unrolled
 * next    @Dense(units = 1, flatten = false)  [BATCH, 5, 1]        5        45    20 B
 *           FullyConnected
 * total                                                          105     &gt;= 45   160 B
 * * declared by the custom layer; its forward body is traced and checked when the graph is built
 * </pre>
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class GruNetModel implements KilnModel {
  /**
   * The model's name and layer table, as {@link #summary()} returns them: a constant, so that tools
   * can show it without creating a model, which starts MXNet.
   */
  public static final String SUMMARY = """
      GruNet
      node    layer / MXNet op                    output          params  flops/ex  act/ex
      x       @Input(shape = {BATCH, 5, 3})       [BATCH, 5, 3]        0         0    60 B
                variable
      states  @GruCell(hidden = 4)                [BATCH, 5, 4]*     100         ?    80 B
                custom cell GruCell, unrolled
      next    @Dense(units = 1, flatten = false)  [BATCH, 5, 1]        5        45    20 B
                FullyConnected
      total                                                          105     >= 45   160 B
      * declared by the custom layer; its forward body is traced and checked when the graph is built
      """;

  private static final List<InputSpec> INPUTS = List.of(new InputSpec("x", GruNetGraph.X_SHAPE));

  private static final List<String> OUTPUTS = List.of("next");

  private final ModelRuntime runtime;

  private final Params params;

  private GruNetModel(ModelRuntime runtime) {
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
  public static GruNetModel create() {
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
  public static GruNetModel create(Init init, long seed) {
    return new GruNetModel(new ModelRuntime("GruNetModel", graph(false), init, seed));
  }

  /**
   * A new graph of {@code GruNet}, built by {@link GruNetGraph}; with {@code training}, for
   * training against labels (the head as its training loss). The caller owns it.
   */
  private static Graph graph(boolean training) {
    try (GraphBuilder builder = new GraphBuilder("GruNet", training)) {
      return GruNetGraph.build(builder);
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
  public static GruNetModel load(Path prefix) {
    GruNetModel model = create(Init.constant(0f), 0L);
    try {
      model.runtime.loadParams(prefix);
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    return model;
  }

  /**
   * The generated class's simple name, {@code GruNetModel}.
   */
  @Override
  public String name() {
    return "GruNetModel";
  }

  /**
   * The inputs in declaration order, with their declared shapes: {@code x [BATCH, 5, 3]}.
   */
  @Override
  public List<InputSpec> inputs() {
    return INPUTS;
  }

  /**
   * The names of the outputs in declaration order: {@code next}.
   */
  @Override
  public List<String> outputs() {
    return OUTPUTS;
  }

  /**
   * Runs the model on a batch, in the mode {@link #setTraining} chose.
   *
   * @param x input {@code x}, float32 of shape {@code [BATCH, 5, 3]}
   * @return output {@code next}, of shape {@code [BATCH, 5, 1]}
   */
  public NDArray forward(NDArray x) {
    return runtime.forward(x)[0];
  }

  /**
   * Back-propagates through the last forward pass, which must have run in training mode. Parameter
   * gradients add up until the next update.
   *
   * @param dNext gradient of the loss with respect to output {@code next}, of its shape
   * @return the gradient of every input
   */
  public Gradients backward(NDArray dNext) {
    NDArray[] grads = runtime.backward(dNext);
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
   * @param x complete shape of input {@code x}, accepted by {@code [BATCH, 5, 3]}
   * @return the typed executor
   */
  public GruNetExec exec(Shape x) {
    return new GruNetExec(runtime, runtime.executor(List.of(x)));
  }

  /**
   * False: GruNetModel is not a classifier, because its last node next is @Dense(units = 1, flatten
   * = false), not a @Softmax.
   */
  @Override
  public boolean isClassifier() {
    return false;
  }

  /**
   * Not available: GruNetModel is not a classifier: its last node next is @Dense(units = 1, flatten
   * = false), not a @Softmax.
   *
   * @throws UnsupportedOperationException always
   */
  @Override
  public Classifier classifier() {
    throw new UnsupportedOperationException(
        "GruNetModel is not a classifier: its last node next is "
        + "@Dense(units = 1, flatten = false), not a @Softmax");
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
   * Typed access to the parameters (and auxiliary states) of {@code GruNet}; reads and writes go to
   * the arrays every executor shares.
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
     * Parameter {@code next_weight} of node {@code next}
     * ({@code @Dense(units = 1, flatten = false)}), shape {@code [1, 4]}.
     */
    public Parameter nextWeight() {
      return runtime.param("next_weight");
    }

    /**
     * Parameter {@code next_bias} of node {@code next}
     * ({@code @Dense(units = 1, flatten = false)}), shape {@code [1]}.
     */
    public Parameter nextBias() {
      return runtime.param("next_bias");
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
        case "next_weight" -> nextWeight();
        case "next_bias" -> nextBias();
        default -> throw new IllegalArgumentException(
            "GruNetModel has no parameter or auxiliary state '" + name + "'");
      };
    }
  }
}
