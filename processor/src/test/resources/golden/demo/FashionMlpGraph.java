package demo;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * Builds the MXNet graph of {@link FashionMlp}: one method per node, each emitting its MXNet
 * operator named after the node, with the inferred shape of every node and parameter as a constant
 * and where each node was declared.
 *
 * <p>The shapes were inferred at compile time; {@code BATCH} dimensions are fixed when an executor
 * is bound. {@link FashionMlpModel} lists every node in its layer table.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class FashionMlpGraph implements FashionMlp {
  /**
   * Declared shape of input {@code pixels}: {@code [BATCH, 784]}.
   */
  public static final Shape PIXELS_SHAPE = Shape.of(BATCH, 784);

  /**
   * Output shape of node {@code hidden}: {@code [BATCH, 128]}.
   */
  public static final Shape HIDDEN_SHAPE = Shape.of(BATCH, 128);

  /**
   * Shape of parameter {@code hidden_weight}: {@code [128, 784]}.
   */
  public static final Shape HIDDEN_WEIGHT_SHAPE = Shape.of(128, 784);

  /**
   * Shape of parameter {@code hidden_bias}: {@code [128]}.
   */
  public static final Shape HIDDEN_BIAS_SHAPE = Shape.of(128);

  /**
   * Output shape of node {@code logits}: {@code [BATCH, 10]}.
   */
  public static final Shape LOGITS_SHAPE = Shape.of(BATCH, 10);

  /**
   * Shape of parameter {@code logits_weight}: {@code [10, 128]}.
   */
  public static final Shape LOGITS_WEIGHT_SHAPE = Shape.of(10, 128);

  /**
   * Shape of parameter {@code logits_bias}: {@code [10]}.
   */
  public static final Shape LOGITS_BIAS_SHAPE = Shape.of(10);

  /**
   * Output shape of node {@code probs}: {@code [BATCH, 10]}.
   */
  public static final Shape PROBS_SHAPE = Shape.of(BATCH, 10);

  private static final NodeSource PIXELS_SOURCE = new NodeSource("pixels", "FashionMlp.pixels()",
      "@Input(shape = {BATCH, 784})");

  private static final NodeSource HIDDEN_SOURCE = new NodeSource("hidden", "FashionMlp.hidden()",
      "@Dense(units = 128, activation = Act.RELU)");

  private static final NodeSource LOGITS_SOURCE = new NodeSource("logits", "FashionMlp.logits()",
      "@Dense(units = 10)");

  private static final NodeSource PROBS_SOURCE = new NodeSource("probs", "FashionMlp.probs()",
      "@Softmax");

  private final GraphBuilder builder;

  private FashionMlpGraph(GraphBuilder builder) {
    this.builder = builder;
  }

  /**
   * Builds the graph of {@code FashionMlp} with {@code builder}: calls every node method once, each
   * after the nodes it reads, and returns the graph, which the caller owns and must close. The
   * caller closes {@code builder} too.
   *
   * @param builder a new builder for {@code FashionMlp}; with classifier training on, node
   *     {@code probs} becomes MXNet's {@code SoftmaxOutput} with label variable {@code probs_label}
   * @return the graph
   */
  public static Graph build(GraphBuilder builder) {
    FashionMlpGraph graph = new FashionMlpGraph(builder);
    Sym pixels = graph.pixels();
    Sym hidden = graph.hidden(pixels);
    Sym logits = graph.logits(hidden);
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
   * Node {@code hidden}: {@code @Dense(units = 128, activation = Act.RELU)}, output
   * {@code [BATCH, 128]}.
   */
  @Override
  public Sym hidden(Sym pixels) {
    return this.builder.node(HIDDEN_SOURCE, DenseOp.units(128).activation(Act.RELU), pixels);
  }

  /**
   * Node {@code logits}: {@code @Dense(units = 10)}, output {@code [BATCH, 10]}.
   */
  @Override
  public Sym logits(Sym hidden) {
    return this.builder.node(LOGITS_SOURCE, DenseOp.units(10), hidden);
  }

  /**
   * Node {@code probs}: {@code @Softmax}, output {@code [BATCH, 10]}.
   */
  @Override
  public Sym probs(Sym logits) {
    return this.builder.node(PROBS_SOURCE, SoftmaxOp.axis(-1).classifierHead(), logits);
  }
}
