package loss;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.DeconvOp;
import dev.kiln.ops.LossOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * Builds the MXNet graph of {@link Denoiser}: one method per node, each emitting its MXNet operator
 * named after the node, with the inferred shape of every node and parameter as a constant and where
 * each node was declared.
 *
 * <p>The shapes were inferred at compile time; {@code BATCH} dimensions are fixed when an executor
 * is bound. {@link DenoiserModel} lists every node in its layer table.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class DenoiserGraph implements Denoiser {
  /**
   * Declared shape of input {@code noisy}: {@code [BATCH, 1, 8, 8]}.
   */
  public static final Shape NOISY_SHAPE = Shape.of(BATCH, 1, 8, 8);

  /**
   * Output shape of node {@code down}: {@code [BATCH, 4, 4, 4]}.
   */
  public static final Shape DOWN_SHAPE = Shape.of(BATCH, 4, 4, 4);

  /**
   * Shape of parameter {@code down_weight}: {@code [4, 1, 2, 2]}.
   */
  public static final Shape DOWN_WEIGHT_SHAPE = Shape.of(4, 1, 2, 2);

  /**
   * Shape of parameter {@code down_bias}: {@code [4]}.
   */
  public static final Shape DOWN_BIAS_SHAPE = Shape.of(4);

  /**
   * Output shape of node {@code up}: {@code [BATCH, 1, 8, 8]}.
   */
  public static final Shape UP_SHAPE = Shape.of(BATCH, 1, 8, 8);

  /**
   * Shape of parameter {@code up_weight}: {@code [4, 1, 2, 2]}.
   */
  public static final Shape UP_WEIGHT_SHAPE = Shape.of(4, 1, 2, 2);

  /**
   * Shape of parameter {@code up_bias}: {@code [1]}.
   */
  public static final Shape UP_BIAS_SHAPE = Shape.of(1);

  /**
   * Output shape of node {@code clean}: {@code [BATCH, 1, 8, 8]}.
   */
  public static final Shape CLEAN_SHAPE = Shape.of(BATCH, 1, 8, 8);

  private static final NodeSource NOISY_SOURCE = new NodeSource("noisy", "Denoiser.noisy()",
      "@Input(shape = {BATCH, 1, 8, 8})");

  private static final NodeSource DOWN_SOURCE = new NodeSource("down", "Denoiser.down()",
      "@Conv2D(filters = 4, kernel = 2, stride = 2, activation = Act.RELU)");

  private static final NodeSource UP_SOURCE = new NodeSource("up", "Denoiser.up()",
      "@Deconv2D(filters = 1, kernel = 2, stride = 2)");

  private static final NodeSource CLEAN_SOURCE = new NodeSource("clean", "Denoiser.clean()",
      "@L2Loss");

  private final GraphBuilder builder;

  private DenoiserGraph(GraphBuilder builder) {
    this.builder = builder;
  }

  /**
   * Builds the graph of {@code Denoiser} with {@code builder}: calls every node method once, each
   * after the nodes it reads, and returns the graph, which the caller owns and must close. The
   * caller closes {@code builder} too.
   *
   * @param builder a new builder for {@code Denoiser}; with training on, the loss head
   *     {@code clean} becomes MXNet's {@code MakeLoss} over the loss of each value
   * @return the graph
   */
  public static Graph build(GraphBuilder builder) {
    DenoiserGraph graph = new DenoiserGraph(builder);
    Sym noisy = graph.noisy();
    Sym down = graph.down(noisy);
    Sym up = graph.up(down);
    Sym clean = graph.clean(up);
    return builder.build(List.of(clean));
  }

  /**
   * Node {@code noisy}: {@code @Input(shape = {BATCH, 1, 8, 8})}, output {@code [BATCH, 1, 8, 8]}.
   */
  @Override
  public Sym noisy() {
    return this.builder.input(NOISY_SOURCE, NOISY_SHAPE);
  }

  /**
   * Node {@code down}: {@code @Conv2D(filters = 4, kernel = 2, stride = 2, activation = Act.RELU)},
   * output {@code [BATCH, 4, 4, 4]}.
   */
  @Override
  public Sym down(Sym noisy) {
    return this.builder.node(DOWN_SOURCE,
        ConvOp.filters(4).kernel(2, 2).stride(2, 2).activation(Act.RELU), noisy);
  }

  /**
   * Node {@code up}: {@code @Deconv2D(filters = 1, kernel = 2, stride = 2)}, output
   * {@code [BATCH, 1, 8, 8]}.
   */
  @Override
  public Sym up(Sym down) {
    return this.builder.node(UP_SOURCE, DeconvOp.filters(1).kernel(2, 2).stride(2, 2), down);
  }

  /**
   * Node {@code clean}: {@code @L2Loss}, output {@code [BATCH, 1, 8, 8]}.
   */
  @Override
  public Sym clean(Sym up) {
    return this.builder.node(CLEAN_SOURCE, LossOp.l2(64), up);
  }
}
