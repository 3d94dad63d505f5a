package dims;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.PoolConvention;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.PReluOp;
import dev.kiln.ops.PoolOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Dimensions;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * Builds the MXNet graph of {@link Pnet}: one method per node, each emitting its MXNet operator
 * named after the node, with the inferred shape of every node and parameter as a constant and where
 * each node was declared.
 *
 * <p>The shapes were inferred at compile time; {@code BATCH} dimensions are fixed when an executor
 * is bound. {@link PnetModel} lists every node in its layer table.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class PnetGraph implements Pnet {
  /**
   * Declared shape of input {@code image}: {@code [BATCH, 3, H, W]}.
   */
  public static final Shape IMAGE_SHAPE = Shape.of(BATCH, 3, H, W).free("H", "W");

  /**
   * Output shape of node {@code conv1}: {@code [BATCH, 10, H - 2, W - 2]}.
   */
  public static final Shape CONV1_SHAPE = Shape.of(BATCH, 10, Shape.FREE, Shape.FREE).free("H - 2",
      "W - 2");

  /**
   * Shape of parameter {@code conv1_weight}: {@code [10, 3, 3, 3]}.
   */
  public static final Shape CONV1_WEIGHT_SHAPE = Shape.of(10, 3, 3, 3);

  /**
   * Shape of parameter {@code conv1_bias}: {@code [10]}.
   */
  public static final Shape CONV1_BIAS_SHAPE = Shape.of(10);

  /**
   * Output shape of node {@code prelu1}: {@code [BATCH, 10, H - 2, W - 2]}.
   */
  public static final Shape PRELU1_SHAPE = Shape.of(BATCH, 10, Shape.FREE, Shape.FREE).free("H - 2",
      "W - 2");

  /**
   * Shape of parameter {@code prelu1_alpha}: {@code [10]}.
   */
  public static final Shape PRELU1_ALPHA_SHAPE = Shape.of(10);

  /**
   * Output shape of node {@code pool1}: {@code [BATCH, 10, (H + 1) / 2 - 1, (W + 1) / 2 - 1]}.
   */
  public static final Shape POOL1_SHAPE = Shape.of(BATCH, 10, Shape.FREE, Shape.FREE)
      .free("(H + 1) / 2 - 1", "(W + 1) / 2 - 1");

  /**
   * Output shape of node {@code conv2}: {@code [BATCH, 16, (H + 1) / 2 - 3, (W + 1) / 2 - 3]}.
   */
  public static final Shape CONV2_SHAPE = Shape.of(BATCH, 16, Shape.FREE, Shape.FREE)
      .free("(H + 1) / 2 - 3", "(W + 1) / 2 - 3");

  /**
   * Shape of parameter {@code conv2_weight}: {@code [16, 10, 3, 3]}.
   */
  public static final Shape CONV2_WEIGHT_SHAPE = Shape.of(16, 10, 3, 3);

  /**
   * Shape of parameter {@code conv2_bias}: {@code [16]}.
   */
  public static final Shape CONV2_BIAS_SHAPE = Shape.of(16);

  /**
   * Output shape of node {@code prelu2}: {@code [BATCH, 16, (H + 1) / 2 - 3, (W + 1) / 2 - 3]}.
   */
  public static final Shape PRELU2_SHAPE = Shape.of(BATCH, 16, Shape.FREE, Shape.FREE)
      .free("(H + 1) / 2 - 3", "(W + 1) / 2 - 3");

  /**
   * Shape of parameter {@code prelu2_alpha}: {@code [16]}.
   */
  public static final Shape PRELU2_ALPHA_SHAPE = Shape.of(16);

  /**
   * Output shape of node {@code conv3}: {@code [BATCH, 32, (H + 1) / 2 - 5, (W + 1) / 2 - 5]}.
   */
  public static final Shape CONV3_SHAPE = Shape.of(BATCH, 32, Shape.FREE, Shape.FREE)
      .free("(H + 1) / 2 - 5", "(W + 1) / 2 - 5");

  /**
   * Shape of parameter {@code conv3_weight}: {@code [32, 16, 3, 3]}.
   */
  public static final Shape CONV3_WEIGHT_SHAPE = Shape.of(32, 16, 3, 3);

  /**
   * Shape of parameter {@code conv3_bias}: {@code [32]}.
   */
  public static final Shape CONV3_BIAS_SHAPE = Shape.of(32);

  /**
   * Output shape of node {@code prelu3}: {@code [BATCH, 32, (H + 1) / 2 - 5, (W + 1) / 2 - 5]}.
   */
  public static final Shape PRELU3_SHAPE = Shape.of(BATCH, 32, Shape.FREE, Shape.FREE)
      .free("(H + 1) / 2 - 5", "(W + 1) / 2 - 5");

  /**
   * Shape of parameter {@code prelu3_alpha}: {@code [32]}.
   */
  public static final Shape PRELU3_ALPHA_SHAPE = Shape.of(32);

  /**
   * Output shape of node {@code scoreLogits}: {@code [BATCH, 2, (H + 1) / 2 - 5, (W + 1) / 2 - 5]}.
   */
  public static final Shape SCORE_LOGITS_SHAPE = Shape.of(BATCH, 2, Shape.FREE, Shape.FREE)
      .free("(H + 1) / 2 - 5", "(W + 1) / 2 - 5");

  /**
   * Shape of parameter {@code scoreLogits_weight}: {@code [2, 32, 1, 1]}.
   */
  public static final Shape SCORE_LOGITS_WEIGHT_SHAPE = Shape.of(2, 32, 1, 1);

  /**
   * Shape of parameter {@code scoreLogits_bias}: {@code [2]}.
   */
  public static final Shape SCORE_LOGITS_BIAS_SHAPE = Shape.of(2);

  /**
   * Output shape of node {@code score}: {@code [BATCH, 2, (H + 1) / 2 - 5, (W + 1) / 2 - 5]}.
   */
  public static final Shape SCORE_SHAPE = Shape.of(BATCH, 2, Shape.FREE, Shape.FREE)
      .free("(H + 1) / 2 - 5", "(W + 1) / 2 - 5");

  /**
   * Output shape of node {@code box}: {@code [BATCH, 4, (H + 1) / 2 - 5, (W + 1) / 2 - 5]}.
   */
  public static final Shape BOX_SHAPE = Shape.of(BATCH, 4, Shape.FREE, Shape.FREE)
      .free("(H + 1) / 2 - 5", "(W + 1) / 2 - 5");

  /**
   * Shape of parameter {@code box_weight}: {@code [4, 32, 1, 1]}.
   */
  public static final Shape BOX_WEIGHT_SHAPE = Shape.of(4, 32, 1, 1);

  /**
   * Shape of parameter {@code box_bias}: {@code [4]}.
   */
  public static final Shape BOX_BIAS_SHAPE = Shape.of(4);

  private static final NodeSource IMAGE_SOURCE = new NodeSource("image", "Pnet.image()",
      "@Input(shape = {BATCH, 3, H, W})");

  private static final NodeSource CONV1_SOURCE = new NodeSource("conv1", "Pnet.conv1()",
      "@Conv2D(filters = 10, kernel = 3)");

  private static final NodeSource PRELU1_SOURCE = new NodeSource("prelu1", "Pnet.prelu1()",
      "@PRelu");

  private static final NodeSource POOL1_SOURCE = new NodeSource("pool1", "Pnet.pool1()",
      "@MaxPool(kernel = 2, stride = 2, convention = PoolConvention.FULL)");

  private static final NodeSource CONV2_SOURCE = new NodeSource("conv2", "Pnet.conv2()",
      "@Conv2D(filters = 16, kernel = 3)");

  private static final NodeSource PRELU2_SOURCE = new NodeSource("prelu2", "Pnet.prelu2()",
      "@PRelu");

  private static final NodeSource CONV3_SOURCE = new NodeSource("conv3", "Pnet.conv3()",
      "@Conv2D(filters = 32, kernel = 3)");

  private static final NodeSource PRELU3_SOURCE = new NodeSource("prelu3", "Pnet.prelu3()",
      "@PRelu");

  private static final NodeSource SCORE_LOGITS_SOURCE = new NodeSource("scoreLogits",
      "Pnet.scoreLogits()", "@Conv2D(filters = 2, kernel = 1)");

  private static final NodeSource SCORE_SOURCE = new NodeSource("score", "Pnet.score()",
      "@Softmax(axis = 1)");

  private static final NodeSource BOX_SOURCE = new NodeSource("box", "Pnet.box()",
      "@Conv2D(filters = 4, kernel = 1)");

  /**
   * The free dimensions of {@code Pnet} and what it needs of their sizes, checked before an
   * executor is bound for a new shape:
   * <ul>
   * <li>{@code H >= 12}: declared, {@code &#64;FreeDim(min = 12) int H}
   * <li>{@code W >= 12}: declared, {@code &#64;FreeDim(min = 12) int W}
   * </ul>
   */
  public static final Dimensions DIMENSIONS = Dimensions.of(new Dimensions.Dim("H", H),
      new Dimensions.Dim("W", W)).require("H >= 12", "", "@FreeDim(min = 12) int H")
      .require("W >= 12", "", "@FreeDim(min = 12) int W");

  private final GraphBuilder builder;

  private PnetGraph(GraphBuilder builder) {
    this.builder = builder;
  }

  /**
   * Builds the graph of {@code Pnet} with {@code builder}: calls every node method once, each after
   * the nodes it reads, and returns the graph, which the caller owns and must close. The caller
   * closes {@code builder} too.
   *
   * @param builder a new builder for {@code Pnet}
   * @return the graph
   */
  public static Graph build(GraphBuilder builder) {
    PnetGraph graph = new PnetGraph(builder);
    builder.dimensions(DIMENSIONS);
    Sym image = graph.image();
    Sym conv1 = graph.conv1(image);
    Sym prelu1 = graph.prelu1(conv1);
    Sym pool1 = graph.pool1(prelu1);
    Sym conv2 = graph.conv2(pool1);
    Sym prelu2 = graph.prelu2(conv2);
    Sym conv3 = graph.conv3(prelu2);
    Sym prelu3 = graph.prelu3(conv3);
    Sym scoreLogits = graph.scoreLogits(prelu3);
    Sym score = graph.score(scoreLogits);
    Sym box = graph.box(prelu3);
    return builder.build(List.of(score, box));
  }

  /**
   * Node {@code image}: {@code @Input(shape = {BATCH, 3, H, W})}, output {@code [BATCH, 3, H, W]}.
   */
  @Override
  public Sym image() {
    return this.builder.input(IMAGE_SOURCE, IMAGE_SHAPE);
  }

  /**
   * Node {@code conv1}: {@code @Conv2D(filters = 10, kernel = 3)}, output
   * {@code [BATCH, 10, H - 2, W - 2]}.
   */
  @Override
  public Sym conv1(Sym image) {
    return this.builder.node(CONV1_SOURCE, ConvOp.filters(10).kernel(3, 3), image);
  }

  /**
   * Node {@code prelu1}: {@code @PRelu}, output {@code [BATCH, 10, H - 2, W - 2]}.
   */
  @Override
  public Sym prelu1(Sym conv1) {
    return this.builder.node(PRELU1_SOURCE, PReluOp.perChannel(), conv1);
  }

  /**
   * Node {@code pool1}: {@code @MaxPool(kernel = 2, stride = 2, convention = PoolConvention.FULL)},
   * output {@code [BATCH, 10, (H + 1) / 2 - 1, (W + 1) / 2 - 1]}.
   */
  @Override
  public Sym pool1(Sym prelu1) {
    return this.builder.node(POOL1_SOURCE, PoolOp.max(2, 2).convention(PoolConvention.FULL),
        prelu1);
  }

  /**
   * Node {@code conv2}: {@code @Conv2D(filters = 16, kernel = 3)}, output
   * {@code [BATCH, 16, (H + 1) / 2 - 3, (W + 1) / 2 - 3]}.
   */
  @Override
  public Sym conv2(Sym pool1) {
    return this.builder.node(CONV2_SOURCE, ConvOp.filters(16).kernel(3, 3), pool1);
  }

  /**
   * Node {@code prelu2}: {@code @PRelu}, output
   * {@code [BATCH, 16, (H + 1) / 2 - 3, (W + 1) / 2 - 3]}.
   */
  @Override
  public Sym prelu2(Sym conv2) {
    return this.builder.node(PRELU2_SOURCE, PReluOp.perChannel(), conv2);
  }

  /**
   * Node {@code conv3}: {@code @Conv2D(filters = 32, kernel = 3)}, output
   * {@code [BATCH, 32, (H + 1) / 2 - 5, (W + 1) / 2 - 5]}.
   */
  @Override
  public Sym conv3(Sym prelu2) {
    return this.builder.node(CONV3_SOURCE, ConvOp.filters(32).kernel(3, 3), prelu2);
  }

  /**
   * Node {@code prelu3}: {@code @PRelu}, output
   * {@code [BATCH, 32, (H + 1) / 2 - 5, (W + 1) / 2 - 5]}.
   */
  @Override
  public Sym prelu3(Sym conv3) {
    return this.builder.node(PRELU3_SOURCE, PReluOp.perChannel(), conv3);
  }

  /**
   * Node {@code scoreLogits}: {@code @Conv2D(filters = 2, kernel = 1)}, output
   * {@code [BATCH, 2, (H + 1) / 2 - 5, (W + 1) / 2 - 5]}.
   */
  @Override
  public Sym scoreLogits(Sym prelu3) {
    return this.builder.node(SCORE_LOGITS_SOURCE, ConvOp.filters(2).kernel(1, 1), prelu3);
  }

  /**
   * Node {@code score}: {@code @Softmax(axis = 1)}, output
   * {@code [BATCH, 2, (H + 1) / 2 - 5, (W + 1) / 2 - 5]}.
   */
  @Override
  public Sym score(Sym scoreLogits) {
    return this.builder.node(SCORE_SOURCE, SoftmaxOp.axis(1), scoreLogits);
  }

  /**
   * Node {@code box}: {@code @Conv2D(filters = 4, kernel = 1)}, output
   * {@code [BATCH, 4, (H + 1) / 2 - 5, (W + 1) / 2 - 5]}.
   */
  @Override
  public Sym box(Sym prelu3) {
    return this.builder.node(BOX_SOURCE, ConvOp.filters(4).kernel(1, 1), prelu3);
  }
}
