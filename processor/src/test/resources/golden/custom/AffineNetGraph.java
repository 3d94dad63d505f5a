package custom;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import javax.annotation.processing.Generated;
import layers.Affine;

/**
 * Builds the MXNet graph of {@link AffineNet}: one method per node, each emitting its MXNet
 * operator named after the node, with the inferred shape of every node and parameter as a constant
 * and where each node was declared.
 *
 * <p>The shapes were inferred at compile time; {@code BATCH} dimensions are fixed when an executor
 * is bound. {@link AffineNetModel} lists every node in its layer table. A custom layer's output
 * shape is the one the layer declares; its forward body is traced and checked against it when the
 * graph is built.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class AffineNetGraph implements AffineNet {
  /**
   * Declared shape of input {@code pixels}: {@code [BATCH, 784]}.
   */
  public static final Shape PIXELS_SHAPE = Shape.of(BATCH, 784);

  /**
   * Output shape of node {@code scores} as its custom layer {@code @Affine(out = 10)} declares it:
   * {@code [BATCH, 10]}. The layer's forward body is checked against it when the graph is built.
   */
  public static final Shape SCORES_SHAPE = Shape.of(BATCH, 10);

  /**
   * Shape of parameter {@code scores_weight}: {@code [784, 10]}.
   */
  public static final Shape SCORES_WEIGHT_SHAPE = Shape.of(784, 10);

  /**
   * Shape of parameter {@code scores_bias}: {@code [10]}.
   */
  public static final Shape SCORES_BIAS_SHAPE = Shape.of(10);

  /**
   * Output shape of node {@code probs}: {@code [BATCH, 10]}.
   */
  public static final Shape PROBS_SHAPE = Shape.of(BATCH, 10);

  private static final NodeSource PIXELS_SOURCE = new NodeSource("pixels", "AffineNet.pixels()",
      "@Input(shape = {BATCH, 784})");

  private static final NodeSource SCORES_SOURCE = new NodeSource("scores", "AffineNet.scores()",
      "@Affine(out = 10)");

  private static final NodeSource PROBS_SOURCE = new NodeSource("probs", "AffineNet.probs()",
      "@Softmax");

  private final GraphBuilder builder;

  private AffineNetGraph(GraphBuilder builder) {
    this.builder = builder;
  }

  /**
   * Builds the graph of {@code AffineNet} with {@code builder}: calls every node method once, each
   * after the nodes it reads, and returns the graph, which the caller owns and must close. The
   * caller closes {@code builder} too.
   *
   * @param builder a new builder for {@code AffineNet}; with classifier training on, node
   *     {@code probs} becomes MXNet's {@code SoftmaxOutput} with label variable {@code probs_label}
   * @return the graph
   */
  public static Graph build(GraphBuilder builder) {
    AffineNetGraph graph = new AffineNetGraph(builder);
    Sym pixels = graph.pixels();
    Sym scores = graph.scores(pixels);
    Sym probs = graph.probs(scores);
    return builder.build(List.of(probs));
  }

  /**
   * Node {@code pixels}: {@code @Input(shape = {BATCH, 784})}, output {@code [BATCH, 784]}.
   */
  @Override
  public Sym pixels() {
    return this.builder.input(PIXELS_SOURCE, PIXELS_SHAPE);
  }

  /**
   * Node {@code scores}: {@code @Affine(out = 10)}, declared output {@code [BATCH, 10]}, against
   * which the traced forward body is checked.
   */
  @Override
  public Sym scores(Sym pixels) {
    Sym weight = this.builder.customParam(SCORES_SOURCE, "weight", SCORES_WEIGHT_SHAPE,
        List.of("in", "out"), ParamInit.MODEL);
    Sym bias = this.builder.customParam(SCORES_SOURCE, "bias", SCORES_BIAS_SHAPE, List.of("out"),
        ParamInit.ZEROS);
    return this.builder.custom(SCORES_SOURCE, "Affine", List.of("batch", "in"), PIXELS_SHAPE,
        SCORES_SHAPE, pixels, List.of(weight, bias),
        (input, params) -> Affine.Forward.apply(input, params.get(0), params.get(1)));
  }

  /**
   * Node {@code probs}: {@code @Softmax}, output {@code [BATCH, 10]}.
   */
  @Override
  public Sym probs(Sym scores) {
    return this.builder.node(PROBS_SOURCE, SoftmaxOp.axis(-1).classifierHead(), scores);
  }
}
