package lenet;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ActivationOp;
import dev.kiln.ops.BatchNormOp;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.DropoutOp;
import dev.kiln.ops.FlattenOp;
import dev.kiln.ops.PoolOp;
import dev.kiln.ops.ReshapeOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * Builds the MXNet graph of {@link LeNet}: one method per node, each emitting its MXNet operator
 * named after the node, with the inferred shape of every node and parameter as a constant and where
 * each node was declared.
 *
 * <p>The shapes were inferred at compile time; {@code BATCH} dimensions are fixed when an executor
 * is bound. {@link LeNetModel} lists every node in its layer table.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class LeNetGraph implements LeNet {
  /**
   * Declared shape of input {@code pixels}: {@code [BATCH, 784]}.
   */
  public static final Shape PIXELS_SHAPE = Shape.of(BATCH, 784);

  /**
   * Output shape of node {@code image}: {@code [BATCH, 1, 28, 28]}.
   */
  public static final Shape IMAGE_SHAPE = Shape.of(BATCH, 1, 28, 28);

  /**
   * Output shape of node {@code conv1}: {@code [BATCH, 6, 28, 28]}.
   */
  public static final Shape CONV1_SHAPE = Shape.of(BATCH, 6, 28, 28);

  /**
   * Shape of parameter {@code conv1_weight}: {@code [6, 1, 5, 5]}.
   */
  public static final Shape CONV1_WEIGHT_SHAPE = Shape.of(6, 1, 5, 5);

  /**
   * Shape of parameter {@code conv1_bias}: {@code [6]}.
   */
  public static final Shape CONV1_BIAS_SHAPE = Shape.of(6);

  /**
   * Output shape of node {@code bn1}: {@code [BATCH, 6, 28, 28]}.
   */
  public static final Shape BN1_SHAPE = Shape.of(BATCH, 6, 28, 28);

  /**
   * Shape of parameter {@code bn1_gamma}: {@code [6]}.
   */
  public static final Shape BN1_GAMMA_SHAPE = Shape.of(6);

  /**
   * Shape of parameter {@code bn1_beta}: {@code [6]}.
   */
  public static final Shape BN1_BETA_SHAPE = Shape.of(6);

  /**
   * Shape of auxiliary state {@code bn1_moving_mean}: {@code [6]}.
   */
  public static final Shape BN1_MOVING_MEAN_SHAPE = Shape.of(6);

  /**
   * Shape of auxiliary state {@code bn1_moving_var}: {@code [6]}.
   */
  public static final Shape BN1_MOVING_VAR_SHAPE = Shape.of(6);

  /**
   * Output shape of node {@code relu1}: {@code [BATCH, 6, 28, 28]}.
   */
  public static final Shape RELU1_SHAPE = Shape.of(BATCH, 6, 28, 28);

  /**
   * Output shape of node {@code pool1}: {@code [BATCH, 6, 14, 14]}.
   */
  public static final Shape POOL1_SHAPE = Shape.of(BATCH, 6, 14, 14);

  /**
   * Output shape of node {@code conv2}: {@code [BATCH, 16, 10, 10]}.
   */
  public static final Shape CONV2_SHAPE = Shape.of(BATCH, 16, 10, 10);

  /**
   * Shape of parameter {@code conv2_weight}: {@code [16, 6, 5, 5]}.
   */
  public static final Shape CONV2_WEIGHT_SHAPE = Shape.of(16, 6, 5, 5);

  /**
   * Shape of parameter {@code conv2_bias}: {@code [16]}.
   */
  public static final Shape CONV2_BIAS_SHAPE = Shape.of(16);

  /**
   * Output shape of node {@code pool2}: {@code [BATCH, 16, 5, 5]}.
   */
  public static final Shape POOL2_SHAPE = Shape.of(BATCH, 16, 5, 5);

  /**
   * Output shape of node {@code features}: {@code [BATCH, 400]}.
   */
  public static final Shape FEATURES_SHAPE = Shape.of(BATCH, 400);

  /**
   * Output shape of node {@code hidden}: {@code [BATCH, 120]}.
   */
  public static final Shape HIDDEN_SHAPE = Shape.of(BATCH, 120);

  /**
   * Shape of parameter {@code hidden_weight}: {@code [120, 400]}.
   */
  public static final Shape HIDDEN_WEIGHT_SHAPE = Shape.of(120, 400);

  /**
   * Shape of parameter {@code hidden_bias}: {@code [120]}.
   */
  public static final Shape HIDDEN_BIAS_SHAPE = Shape.of(120);

  /**
   * Output shape of node {@code dropped}: {@code [BATCH, 120]}.
   */
  public static final Shape DROPPED_SHAPE = Shape.of(BATCH, 120);

  /**
   * Output shape of node {@code logits}: {@code [BATCH, 10]}.
   */
  public static final Shape LOGITS_SHAPE = Shape.of(BATCH, 10);

  /**
   * Shape of parameter {@code logits_weight}: {@code [10, 120]}.
   */
  public static final Shape LOGITS_WEIGHT_SHAPE = Shape.of(10, 120);

  /**
   * Shape of parameter {@code logits_bias}: {@code [10]}.
   */
  public static final Shape LOGITS_BIAS_SHAPE = Shape.of(10);

  /**
   * Output shape of node {@code probs}: {@code [BATCH, 10]}.
   */
  public static final Shape PROBS_SHAPE = Shape.of(BATCH, 10);

  private static final NodeSource PIXELS_SOURCE = new NodeSource("pixels", "LeNet.pixels()",
      "@Input(shape = {BATCH, 784})");

  private static final NodeSource IMAGE_SOURCE = new NodeSource("image", "LeNet.image()",
      "@Reshape(shape = {BATCH, 1, 28, 28})");

  private static final NodeSource CONV1_SOURCE = new NodeSource("conv1", "LeNet.conv1()",
      "@Conv2D(filters = 6, kernel = 5, pad = 2)");

  private static final NodeSource BN1_SOURCE = new NodeSource("bn1", "LeNet.bn1()", "@BatchNorm");

  private static final NodeSource RELU1_SOURCE = new NodeSource("relu1", "LeNet.relu1()",
      "@Activation(Act.RELU)");

  private static final NodeSource POOL1_SOURCE = new NodeSource("pool1", "LeNet.pool1()",
      "@MaxPool(kernel = 2)");

  private static final NodeSource CONV2_SOURCE = new NodeSource("conv2", "LeNet.conv2()",
      "@Conv2D(filters = 16, kernel = 5, activation = Act.RELU)");

  private static final NodeSource POOL2_SOURCE = new NodeSource("pool2", "LeNet.pool2()",
      "@MaxPool(kernel = 2, stride = 2)");

  private static final NodeSource FEATURES_SOURCE = new NodeSource("features", "LeNet.features()",
      "@Flatten");

  private static final NodeSource HIDDEN_SOURCE = new NodeSource("hidden", "LeNet.hidden()",
      "@Dense(units = 120, activation = Act.RELU)");

  private static final NodeSource DROPPED_SOURCE = new NodeSource("dropped", "LeNet.dropped()",
      "@Dropout(rate = 0.25)");

  private static final NodeSource LOGITS_SOURCE = new NodeSource("logits", "LeNet.logits()",
      "@Dense(units = 10)");

  private static final NodeSource PROBS_SOURCE = new NodeSource("probs", "LeNet.probs()",
      "@Softmax");

  private final GraphBuilder builder;

  private LeNetGraph(GraphBuilder builder) {
    this.builder = builder;
  }

  /**
   * Builds the graph of {@code LeNet} with {@code builder}: calls every node method once, each
   * after the nodes it reads, and returns the graph, which the caller owns and must close. The
   * caller closes {@code builder} too.
   *
   * @param builder a new builder for {@code LeNet}; with classifier training on, node {@code probs}
   *     becomes MXNet's {@code SoftmaxOutput} with label variable {@code probs_label}
   * @return the graph
   */
  public static Graph build(GraphBuilder builder) {
    LeNetGraph graph = new LeNetGraph(builder);
    Sym pixels = graph.pixels();
    Sym image = graph.image(pixels);
    Sym conv1 = graph.conv1(image);
    Sym bn1 = graph.bn1(conv1);
    Sym relu1 = graph.relu1(bn1);
    Sym pool1 = graph.pool1(relu1);
    Sym conv2 = graph.conv2(pool1);
    Sym pool2 = graph.pool2(conv2);
    Sym features = graph.features(pool2);
    Sym hidden = graph.hidden(features);
    Sym dropped = graph.dropped(hidden);
    Sym logits = graph.logits(dropped);
    Sym probs = graph.probs(logits);
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
   * Node {@code image}: {@code @Reshape(shape = {BATCH, 1, 28, 28})}, output
   * {@code [BATCH, 1, 28, 28]}.
   */
  @Override
  public Sym image(Sym pixels) {
    return this.builder.node(IMAGE_SOURCE, ReshapeOp.of(BATCH, 1, 28, 28), pixels);
  }

  /**
   * Node {@code conv1}: {@code @Conv2D(filters = 6, kernel = 5, pad = 2)}, output
   * {@code [BATCH, 6, 28, 28]}.
   */
  @Override
  public Sym conv1(Sym image) {
    return this.builder.node(CONV1_SOURCE, ConvOp.filters(6).kernel(5, 5).pad(2, 2), image);
  }

  /**
   * Node {@code bn1}: {@code @BatchNorm}, output {@code [BATCH, 6, 28, 28]}.
   */
  @Override
  public Sym bn1(Sym conv1) {
    return this.builder.node(BN1_SOURCE, BatchNormOp.channelAxis(1).eps(0.001).momentum(0.9),
        conv1);
  }

  /**
   * Node {@code relu1}: {@code @Activation(Act.RELU)}, output {@code [BATCH, 6, 28, 28]}.
   */
  @Override
  public Sym relu1(Sym bn1) {
    return this.builder.node(RELU1_SOURCE, ActivationOp.of(Act.RELU), bn1);
  }

  /**
   * Node {@code pool1}: {@code @MaxPool(kernel = 2)}, output {@code [BATCH, 6, 14, 14]}.
   */
  @Override
  public Sym pool1(Sym relu1) {
    return this.builder.node(POOL1_SOURCE, PoolOp.max(2, 2), relu1);
  }

  /**
   * Node {@code conv2}: {@code @Conv2D(filters = 16, kernel = 5, activation = Act.RELU)}, output
   * {@code [BATCH, 16, 10, 10]}.
   */
  @Override
  public Sym conv2(Sym pool1) {
    return this.builder.node(CONV2_SOURCE, ConvOp.filters(16).kernel(5, 5).activation(Act.RELU),
        pool1);
  }

  /**
   * Node {@code pool2}: {@code @MaxPool(kernel = 2, stride = 2)}, output {@code [BATCH, 16, 5, 5]}.
   */
  @Override
  public Sym pool2(Sym conv2) {
    return this.builder.node(POOL2_SOURCE, PoolOp.max(2, 2), conv2);
  }

  /**
   * Node {@code features}: {@code @Flatten}, output {@code [BATCH, 400]}.
   */
  @Override
  public Sym features(Sym pool2) {
    return this.builder.node(FEATURES_SOURCE, FlattenOp.of(), pool2);
  }

  /**
   * Node {@code hidden}: {@code @Dense(units = 120, activation = Act.RELU)}, output
   * {@code [BATCH, 120]}.
   */
  @Override
  public Sym hidden(Sym features) {
    return this.builder.node(HIDDEN_SOURCE, DenseOp.units(120).activation(Act.RELU), features);
  }

  /**
   * Node {@code dropped}: {@code @Dropout(rate = 0.25)}, output {@code [BATCH, 120]}.
   */
  @Override
  public Sym dropped(Sym hidden) {
    return this.builder.node(DROPPED_SOURCE, DropoutOp.rate(0.25), hidden);
  }

  /**
   * Node {@code logits}: {@code @Dense(units = 10)}, output {@code [BATCH, 10]}.
   */
  @Override
  public Sym logits(Sym dropped) {
    return this.builder.node(LOGITS_SOURCE, DenseOp.units(10), dropped);
  }

  /**
   * Node {@code probs}: {@code @Softmax}, output {@code [BATCH, 10]}.
   */
  @Override
  public Sym probs(Sym logits) {
    return this.builder.node(PROBS_SOURCE, SoftmaxOp.axis(-1).classifierHead(), logits);
  }
}
