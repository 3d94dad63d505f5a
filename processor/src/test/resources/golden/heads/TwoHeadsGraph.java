package heads;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.AddOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.LayerNormOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * Builds the MXNet graph of {@link TwoHeads}: one method per node, each emitting its MXNet operator
 * named after the node, with the inferred shape of every node and parameter as a constant and where
 * each node was declared.
 *
 * <p>The shapes were inferred at compile time; {@code BATCH} dimensions are fixed when an executor
 * is bound. {@link TwoHeadsModel} lists every node in its layer table.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class TwoHeadsGraph implements TwoHeads {
  /**
   * Declared shape of input {@code features}: {@code [BATCH, 3, 4]}.
   */
  public static final Shape FEATURES_SHAPE = Shape.of(BATCH, 3, 4);

  /**
   * Declared shape of input {@code context}: {@code [BATCH, 8]}.
   */
  public static final Shape CONTEXT_SHAPE = Shape.of(BATCH, 8);

  /**
   * Output shape of node {@code base}: {@code [BATCH, 8]}.
   */
  public static final Shape BASE_SHAPE = Shape.of(BATCH, 8);

  /**
   * Shape of parameter {@code base_weight}: {@code [8, 12]}.
   */
  public static final Shape BASE_WEIGHT_SHAPE = Shape.of(8, 12);

  /**
   * Shape of parameter {@code base_bias}: {@code [8]}.
   */
  public static final Shape BASE_BIAS_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code mixed}: {@code [BATCH, 8]}.
   */
  public static final Shape MIXED_SHAPE = Shape.of(BATCH, 8);

  /**
   * Output shape of node {@code normed}: {@code [BATCH, 8]}.
   */
  public static final Shape NORMED_SHAPE = Shape.of(BATCH, 8);

  /**
   * Shape of parameter {@code normed_gamma}: {@code [8]}.
   */
  public static final Shape NORMED_GAMMA_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code normed_beta}: {@code [8]}.
   */
  public static final Shape NORMED_BETA_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code left}: {@code [BATCH, 2]}.
   */
  public static final Shape LEFT_SHAPE = Shape.of(BATCH, 2);

  /**
   * Shape of parameter {@code left_weight}: {@code [2, 8]}.
   */
  public static final Shape LEFT_WEIGHT_SHAPE = Shape.of(2, 8);

  /**
   * Shape of parameter {@code left_bias}: {@code [2]}.
   */
  public static final Shape LEFT_BIAS_SHAPE = Shape.of(2);

  /**
   * Output shape of node {@code right}: {@code [BATCH, 3]}.
   */
  public static final Shape RIGHT_SHAPE = Shape.of(BATCH, 3);

  /**
   * Shape of parameter {@code right_weight}: {@code [3, 8]}.
   */
  public static final Shape RIGHT_WEIGHT_SHAPE = Shape.of(3, 8);

  private static final NodeSource FEATURES_SOURCE = new NodeSource("features",
      "TwoHeads.features()", "@Input(shape = {BATCH, 3, 4})");

  private static final NodeSource CONTEXT_SOURCE = new NodeSource("context", "TwoHeads.context()",
      "@Input(shape = {BATCH, 8})");

  private static final NodeSource BASE_SOURCE = new NodeSource("base", "TwoHeads.base()",
      "@Dense(units = 8, activation = Act.TANH)");

  private static final NodeSource MIXED_SOURCE = new NodeSource("mixed", "TwoHeads.mixed()",
      "@Add");

  private static final NodeSource NORMED_SOURCE = new NodeSource("normed", "TwoHeads.normed()",
      "@LayerNorm(eps = 1.0E-6)");

  private static final NodeSource LEFT_SOURCE = new NodeSource("left", "TwoHeads.left()",
      "@Dense(units = 2)");

  private static final NodeSource RIGHT_SOURCE = new NodeSource("right", "TwoHeads.right()",
      "@Dense(units = 3, noBias = true)");

  private final GraphBuilder builder;

  private TwoHeadsGraph(GraphBuilder builder) {
    this.builder = builder;
  }

  /**
   * Builds the graph of {@code TwoHeads} with {@code builder}: calls every node method once, each
   * after the nodes it reads, and returns the graph, which the caller owns and must close. The
   * caller closes {@code builder} too.
   *
   * @param builder a new builder for {@code TwoHeads}
   * @return the graph
   */
  public static Graph build(GraphBuilder builder) {
    TwoHeadsGraph graph = new TwoHeadsGraph(builder);
    Sym features = graph.features();
    Sym context = graph.context();
    Sym base = graph.base(features);
    Sym mixed = graph.mixed(base, context);
    Sym normed = graph.normed(mixed);
    Sym left = graph.left(normed);
    Sym right = graph.right(normed);
    return builder.build(List.of(left, right));
  }

  /**
   * Node {@code features}: {@code @Input(shape = {BATCH, 3, 4})}, output {@code [BATCH, 3, 4]}.
   */
  @Override
  public Sym features() {
    return this.builder.input(FEATURES_SOURCE, FEATURES_SHAPE);
  }

  /**
   * Node {@code context}: {@code @Input(shape = {BATCH, 8})}, output {@code [BATCH, 8]}.
   */
  @Override
  public Sym context() {
    return this.builder.input(CONTEXT_SOURCE, CONTEXT_SHAPE);
  }

  /**
   * Node {@code base}: {@code @Dense(units = 8, activation = Act.TANH)}, output {@code [BATCH, 8]}.
   * Its parameters are frozen: no update changes them.
   */
  @Override
  public Sym base(Sym features) {
    this.builder.freeze(BASE_SOURCE);
    return this.builder.node(BASE_SOURCE, DenseOp.units(8).activation(Act.TANH), features);
  }

  /**
   * Node {@code mixed}: {@code @Add}, output {@code [BATCH, 8]}.
   */
  @Override
  public Sym mixed(Sym base, Sym context) {
    return this.builder.node(MIXED_SOURCE, AddOp.of(), base, context);
  }

  /**
   * Node {@code normed}: {@code @LayerNorm(eps = 1.0E-6)}, output {@code [BATCH, 8]}.
   */
  @Override
  public Sym normed(Sym mixed) {
    return this.builder.node(NORMED_SOURCE, LayerNormOp.axis(-1).eps(1e-6), mixed);
  }

  /**
   * Node {@code left}: {@code @Dense(units = 2)}, output {@code [BATCH, 2]}.
   */
  @Override
  public Sym left(Sym normed) {
    return this.builder.node(LEFT_SOURCE, DenseOp.units(2), normed);
  }

  /**
   * Node {@code right}: {@code @Dense(units = 3, noBias = true)}, output {@code [BATCH, 3]}.
   */
  @Override
  public Sym right(Sym normed) {
    return this.builder.node(RIGHT_SOURCE, DenseOp.units(3).withoutBias(), normed);
  }
}
