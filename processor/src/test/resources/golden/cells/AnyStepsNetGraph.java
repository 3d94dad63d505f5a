package cells;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.RecurrentOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import javax.annotation.processing.Generated;
import layers.GruCell;

/**
 * Builds the MXNet graph of {@link AnyStepsNet}: one method per node, each emitting its MXNet
 * operator named after the node, with the inferred shape of every node and parameter as a constant
 * and where each node was declared.
 *
 * <p>The shapes were inferred at compile time; {@code BATCH} dimensions are fixed when an executor
 * is bound. {@link AnyStepsNetModel} lists every node in its layer table. A custom layer's output
 * shape is the one the layer declares; its forward body is traced and checked against it when the
 * graph is built.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class AnyStepsNetGraph implements AnyStepsNet {
  /**
   * Declared shape of input {@code x}: {@code [BATCH, STEPS, 3]}.
   */
  public static final Shape X_SHAPE = Shape.of(BATCH, -5, 3);

  /**
   * Output shape of node {@code states}, every step's state of its recurrent cell
   * {@code @GruCell(hidden = 4)}: {@code [BATCH, STEPS, 4]}. The cell's forward body is checked
   * against the state shape it declares when the graph is built.
   */
  public static final Shape STATES_SHAPE = Shape.of(BATCH, -5, 4);

  /**
   * Shape of parameter {@code states_wxr}: {@code [3, 4]}.
   */
  public static final Shape STATES_WXR_SHAPE = Shape.of(3, 4);

  /**
   * Shape of parameter {@code states_wxz}: {@code [3, 4]}.
   */
  public static final Shape STATES_WXZ_SHAPE = Shape.of(3, 4);

  /**
   * Shape of parameter {@code states_wxn}: {@code [3, 4]}.
   */
  public static final Shape STATES_WXN_SHAPE = Shape.of(3, 4);

  /**
   * Shape of parameter {@code states_whr}: {@code [4, 4]}.
   */
  public static final Shape STATES_WHR_SHAPE = Shape.of(4, 4);

  /**
   * Shape of parameter {@code states_whz}: {@code [4, 4]}.
   */
  public static final Shape STATES_WHZ_SHAPE = Shape.of(4, 4);

  /**
   * Shape of parameter {@code states_whn}: {@code [4, 4]}.
   */
  public static final Shape STATES_WHN_SHAPE = Shape.of(4, 4);

  /**
   * Shape of parameter {@code states_br}: {@code [4]}.
   */
  public static final Shape STATES_BR_SHAPE = Shape.of(4);

  /**
   * Shape of parameter {@code states_bz}: {@code [4]}.
   */
  public static final Shape STATES_BZ_SHAPE = Shape.of(4);

  /**
   * Shape of parameter {@code states_bxn}: {@code [4]}.
   */
  public static final Shape STATES_BXN_SHAPE = Shape.of(4);

  /**
   * Shape of parameter {@code states_bhn}: {@code [4]}.
   */
  public static final Shape STATES_BHN_SHAPE = Shape.of(4);

  /**
   * Output shape of node {@code last}: {@code [BATCH, 5]}.
   */
  public static final Shape LAST_SHAPE = Shape.of(BATCH, 5);

  /**
   * Shape of parameter {@code last_parameters}: {@code [165]}.
   */
  public static final Shape LAST_PARAMETERS_SHAPE = Shape.of(165);

  /**
   * Output shape of node {@code logits}: {@code [BATCH, 3]}.
   */
  public static final Shape LOGITS_SHAPE = Shape.of(BATCH, 3);

  /**
   * Shape of parameter {@code logits_weight}: {@code [3, 5]}.
   */
  public static final Shape LOGITS_WEIGHT_SHAPE = Shape.of(3, 5);

  /**
   * Shape of parameter {@code logits_bias}: {@code [3]}.
   */
  public static final Shape LOGITS_BIAS_SHAPE = Shape.of(3);

  /**
   * Output shape of node {@code probs}: {@code [BATCH, 3]}.
   */
  public static final Shape PROBS_SHAPE = Shape.of(BATCH, 3);

  private static final NodeSource X_SOURCE = new NodeSource("x", "AnyStepsNet.x()",
      "@Input(shape = {BATCH, STEPS, 3})");

  private static final NodeSource STATES_SOURCE = new NodeSource("states", "AnyStepsNet.states()",
      "@GruCell(hidden = 4)");

  private static final NodeSource LAST_SOURCE = new NodeSource("last", "AnyStepsNet.last()",
      "@Gru(units = 5, returnSequences = false)");

  private static final NodeSource LOGITS_SOURCE = new NodeSource("logits", "AnyStepsNet.logits()",
      "@Dense(units = 3)");

  private static final NodeSource PROBS_SOURCE = new NodeSource("probs", "AnyStepsNet.probs()",
      "@Softmax");

  private final GraphBuilder builder;

  private AnyStepsNetGraph(GraphBuilder builder) {
    this.builder = builder;
  }

  /**
   * Builds the graph of {@code AnyStepsNet} with {@code builder}: calls every node method once,
   * each after the nodes it reads, and returns the graph, which the caller owns and must close. The
   * caller closes {@code builder} too.
   *
   * @param builder a new builder for {@code AnyStepsNet}; with classifier training on, node
   *     {@code probs} becomes MXNet's {@code SoftmaxOutput} with label variable {@code probs_label}
   * @return the graph
   */
  public static Graph build(GraphBuilder builder) {
    AnyStepsNetGraph graph = new AnyStepsNetGraph(builder);
    Sym x = graph.x();
    Sym states = graph.states(x);
    Sym last = graph.last(states);
    Sym logits = graph.logits(last);
    Sym probs = graph.probs(logits);
    return builder.build(List.of(probs));
  }

  /**
   * Node {@code x}: {@code @Input(shape = {BATCH, STEPS, 3})}, output {@code [BATCH, STEPS, 3]}.
   */
  @Override
  public Sym x() {
    return this.builder.input(X_SOURCE, X_SHAPE);
  }

  /**
   * Node {@code states}: {@code @GruCell(hidden = 4)}, a recurrent cell unrolled over the STEPS an
   * executor is bound for, declared output {@code [BATCH, STEPS, 4]} (every step's state), against
   * which each traced step is checked.
   */
  @Override
  public Sym states(Sym x) {
    Sym wxr = this.builder.customParam(STATES_SOURCE, "wxr", STATES_WXR_SHAPE,
        List.of("in", "hidden"), ParamInit.MODEL);
    Sym wxz = this.builder.customParam(STATES_SOURCE, "wxz", STATES_WXZ_SHAPE,
        List.of("in", "hidden"), ParamInit.MODEL);
    Sym wxn = this.builder.customParam(STATES_SOURCE, "wxn", STATES_WXN_SHAPE,
        List.of("in", "hidden"), ParamInit.MODEL);
    Sym whr = this.builder.customParam(STATES_SOURCE, "whr", STATES_WHR_SHAPE,
        List.of("hidden", "hidden"), ParamInit.MODEL);
    Sym whz = this.builder.customParam(STATES_SOURCE, "whz", STATES_WHZ_SHAPE,
        List.of("hidden", "hidden"), ParamInit.MODEL);
    Sym whn = this.builder.customParam(STATES_SOURCE, "whn", STATES_WHN_SHAPE,
        List.of("hidden", "hidden"), ParamInit.MODEL);
    Sym br = this.builder.customParam(STATES_SOURCE, "br", STATES_BR_SHAPE, List.of("hidden"),
        ParamInit.ZEROS);
    Sym bz = this.builder.customParam(STATES_SOURCE, "bz", STATES_BZ_SHAPE, List.of("hidden"),
        ParamInit.ZEROS);
    Sym bxn = this.builder.customParam(STATES_SOURCE, "bxn", STATES_BXN_SHAPE, List.of("hidden"),
        ParamInit.ZEROS);
    Sym bhn = this.builder.customParam(STATES_SOURCE, "bhn", STATES_BHN_SHAPE, List.of("hidden"),
        ParamInit.ZEROS);
    return this.builder.cell(STATES_SOURCE, "GruCell", List.of("batch", "in"),
        List.of("batch", "hidden"), X_SHAPE, STATES_SHAPE, x,
        List.of(wxr, wxz, wxn, whr, whz, whn, br, bz, bxn, bhn),
        (input, state, params) -> GruCell.Step.apply(input, state, params.get(0), params.get(1),
            params.get(2), params.get(3), params.get(4), params.get(5), params.get(6),
            params.get(7), params.get(8), params.get(9)));
  }

  /**
   * Node {@code last}: {@code @Gru(units = 5, returnSequences = false)}, output {@code [BATCH, 5]}.
   */
  @Override
  public Sym last(Sym states) {
    return this.builder.node(LAST_SOURCE, RecurrentOp.gru(5).lastStep().over(BATCH, -5, 4), states);
  }

  /**
   * Node {@code logits}: {@code @Dense(units = 3)}, output {@code [BATCH, 3]}.
   */
  @Override
  public Sym logits(Sym last) {
    return this.builder.node(LOGITS_SOURCE, DenseOp.units(3), last);
  }

  /**
   * Node {@code probs}: {@code @Softmax}, output {@code [BATCH, 3]}.
   */
  @Override
  public Sym probs(Sym logits) {
    return this.builder.node(PROBS_SOURCE, SoftmaxOp.axis(-1).classifierHead(), logits);
  }
}
