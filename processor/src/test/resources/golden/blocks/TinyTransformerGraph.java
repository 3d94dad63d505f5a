package blocks;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.AddOp;
import dev.kiln.ops.AttentionOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.LayerNormOp;
import dev.kiln.ops.PositionalEmbeddingOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.Graph;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.util.List;
import javax.annotation.processing.Generated;

/**
 * Builds the MXNet graph of {@link TinyTransformer}: one method per node, each emitting its MXNet
 * operator named after the node, with the inferred shape of every node and parameter as a constant
 * and where each node was declared.
 *
 * <p>The shapes were inferred at compile time; {@code BATCH} dimensions are fixed when an executor
 * is bound. {@link TinyTransformerModel} lists every node in its layer table.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class TinyTransformerGraph implements TinyTransformer {
  /**
   * Declared shape of input {@code tokens}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape TOKENS_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Output shape of node {@code placed}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape PLACED_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Shape of parameter {@code placed_weight}: {@code [6, 8]}.
   */
  public static final Shape PLACED_WEIGHT_SHAPE = Shape.of(6, 8);

  /**
   * Output shape of node {@code encoder0_norm1}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER0_NORM1_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Shape of parameter {@code encoder0_norm1_gamma}: {@code [8]}.
   */
  public static final Shape ENCODER0_NORM1_GAMMA_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code encoder0_norm1_beta}: {@code [8]}.
   */
  public static final Shape ENCODER0_NORM1_BETA_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code encoder0_attention}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER0_ATTENTION_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Shape of parameter {@code encoder0_attention_query_weight}: {@code [8, 8]}.
   */
  public static final Shape ENCODER0_ATTENTION_QUERY_WEIGHT_SHAPE = Shape.of(8, 8);

  /**
   * Shape of parameter {@code encoder0_attention_query_bias}: {@code [8]}.
   */
  public static final Shape ENCODER0_ATTENTION_QUERY_BIAS_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code encoder0_attention_key_weight}: {@code [8, 8]}.
   */
  public static final Shape ENCODER0_ATTENTION_KEY_WEIGHT_SHAPE = Shape.of(8, 8);

  /**
   * Shape of parameter {@code encoder0_attention_key_bias}: {@code [8]}.
   */
  public static final Shape ENCODER0_ATTENTION_KEY_BIAS_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code encoder0_attention_value_weight}: {@code [8, 8]}.
   */
  public static final Shape ENCODER0_ATTENTION_VALUE_WEIGHT_SHAPE = Shape.of(8, 8);

  /**
   * Shape of parameter {@code encoder0_attention_value_bias}: {@code [8]}.
   */
  public static final Shape ENCODER0_ATTENTION_VALUE_BIAS_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code encoder0_attention_output_weight}: {@code [8, 8]}.
   */
  public static final Shape ENCODER0_ATTENTION_OUTPUT_WEIGHT_SHAPE = Shape.of(8, 8);

  /**
   * Shape of parameter {@code encoder0_attention_output_bias}: {@code [8]}.
   */
  public static final Shape ENCODER0_ATTENTION_OUTPUT_BIAS_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code encoder0_mixed}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER0_MIXED_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Output shape of node {@code encoder0_norm2}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER0_NORM2_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Shape of parameter {@code encoder0_norm2_gamma}: {@code [8]}.
   */
  public static final Shape ENCODER0_NORM2_GAMMA_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code encoder0_norm2_beta}: {@code [8]}.
   */
  public static final Shape ENCODER0_NORM2_BETA_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code encoder0_hidden}: {@code [BATCH, 6, 16]}.
   */
  public static final Shape ENCODER0_HIDDEN_SHAPE = Shape.of(BATCH, 6, 16);

  /**
   * Shape of parameter {@code encoder0_hidden_weight}: {@code [16, 8]}.
   */
  public static final Shape ENCODER0_HIDDEN_WEIGHT_SHAPE = Shape.of(16, 8);

  /**
   * Shape of parameter {@code encoder0_hidden_bias}: {@code [16]}.
   */
  public static final Shape ENCODER0_HIDDEN_BIAS_SHAPE = Shape.of(16);

  /**
   * Output shape of node {@code encoder0_back}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER0_BACK_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Shape of parameter {@code encoder0_back_weight}: {@code [8, 16]}.
   */
  public static final Shape ENCODER0_BACK_WEIGHT_SHAPE = Shape.of(8, 16);

  /**
   * Shape of parameter {@code encoder0_back_bias}: {@code [8]}.
   */
  public static final Shape ENCODER0_BACK_BIAS_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code encoder0_out}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER0_OUT_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Output shape of node {@code encoder1_norm1}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER1_NORM1_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Shape of parameter {@code encoder1_norm1_gamma}: {@code [8]}.
   */
  public static final Shape ENCODER1_NORM1_GAMMA_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code encoder1_norm1_beta}: {@code [8]}.
   */
  public static final Shape ENCODER1_NORM1_BETA_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code encoder1_attention}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER1_ATTENTION_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Shape of parameter {@code encoder1_attention_query_weight}: {@code [8, 8]}.
   */
  public static final Shape ENCODER1_ATTENTION_QUERY_WEIGHT_SHAPE = Shape.of(8, 8);

  /**
   * Shape of parameter {@code encoder1_attention_query_bias}: {@code [8]}.
   */
  public static final Shape ENCODER1_ATTENTION_QUERY_BIAS_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code encoder1_attention_key_weight}: {@code [8, 8]}.
   */
  public static final Shape ENCODER1_ATTENTION_KEY_WEIGHT_SHAPE = Shape.of(8, 8);

  /**
   * Shape of parameter {@code encoder1_attention_key_bias}: {@code [8]}.
   */
  public static final Shape ENCODER1_ATTENTION_KEY_BIAS_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code encoder1_attention_value_weight}: {@code [8, 8]}.
   */
  public static final Shape ENCODER1_ATTENTION_VALUE_WEIGHT_SHAPE = Shape.of(8, 8);

  /**
   * Shape of parameter {@code encoder1_attention_value_bias}: {@code [8]}.
   */
  public static final Shape ENCODER1_ATTENTION_VALUE_BIAS_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code encoder1_attention_output_weight}: {@code [8, 8]}.
   */
  public static final Shape ENCODER1_ATTENTION_OUTPUT_WEIGHT_SHAPE = Shape.of(8, 8);

  /**
   * Shape of parameter {@code encoder1_attention_output_bias}: {@code [8]}.
   */
  public static final Shape ENCODER1_ATTENTION_OUTPUT_BIAS_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code encoder1_mixed}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER1_MIXED_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Output shape of node {@code encoder1_norm2}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER1_NORM2_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Shape of parameter {@code encoder1_norm2_gamma}: {@code [8]}.
   */
  public static final Shape ENCODER1_NORM2_GAMMA_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code encoder1_norm2_beta}: {@code [8]}.
   */
  public static final Shape ENCODER1_NORM2_BETA_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code encoder1_hidden}: {@code [BATCH, 6, 16]}.
   */
  public static final Shape ENCODER1_HIDDEN_SHAPE = Shape.of(BATCH, 6, 16);

  /**
   * Shape of parameter {@code encoder1_hidden_weight}: {@code [16, 8]}.
   */
  public static final Shape ENCODER1_HIDDEN_WEIGHT_SHAPE = Shape.of(16, 8);

  /**
   * Shape of parameter {@code encoder1_hidden_bias}: {@code [16]}.
   */
  public static final Shape ENCODER1_HIDDEN_BIAS_SHAPE = Shape.of(16);

  /**
   * Output shape of node {@code encoder1_back}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER1_BACK_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Shape of parameter {@code encoder1_back_weight}: {@code [8, 16]}.
   */
  public static final Shape ENCODER1_BACK_WEIGHT_SHAPE = Shape.of(8, 16);

  /**
   * Shape of parameter {@code encoder1_back_bias}: {@code [8]}.
   */
  public static final Shape ENCODER1_BACK_BIAS_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code encoder1_out}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape ENCODER1_OUT_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Output shape of node {@code norm}: {@code [BATCH, 6, 8]}.
   */
  public static final Shape NORM_SHAPE = Shape.of(BATCH, 6, 8);

  /**
   * Shape of parameter {@code norm_gamma}: {@code [8]}.
   */
  public static final Shape NORM_GAMMA_SHAPE = Shape.of(8);

  /**
   * Shape of parameter {@code norm_beta}: {@code [8]}.
   */
  public static final Shape NORM_BETA_SHAPE = Shape.of(8);

  /**
   * Output shape of node {@code logits}: {@code [BATCH, 3]}.
   */
  public static final Shape LOGITS_SHAPE = Shape.of(BATCH, 3);

  /**
   * Shape of parameter {@code logits_weight}: {@code [3, 48]}.
   */
  public static final Shape LOGITS_WEIGHT_SHAPE = Shape.of(3, 48);

  /**
   * Shape of parameter {@code logits_bias}: {@code [3]}.
   */
  public static final Shape LOGITS_BIAS_SHAPE = Shape.of(3);

  /**
   * Output shape of node {@code probs}: {@code [BATCH, 3]}.
   */
  public static final Shape PROBS_SHAPE = Shape.of(BATCH, 3);

  private static final NodeSource TOKENS_SOURCE = new NodeSource("tokens",
      "TinyTransformer.tokens()", "@Input(shape = {BATCH, 6, 8})");

  private static final NodeSource PLACED_SOURCE = new NodeSource("placed",
      "TinyTransformer.placed()", "@PositionalEmbedding(steps = 6)");

  private static final NodeSource ENCODER0_NORM1_SOURCE = new NodeSource("encoder0_norm1",
      "EncoderBlock.norm1() in TinyTransformer.encoder() copy 0", "@LayerNorm");

  private static final NodeSource ENCODER0_ATTENTION_SOURCE = new NodeSource("encoder0_attention",
      "EncoderBlock.attention() in TinyTransformer.encoder() copy 0",
      "@MultiHeadAttention(heads = 2)");

  private static final NodeSource ENCODER0_MIXED_SOURCE = new NodeSource("encoder0_mixed",
      "EncoderBlock.mixed() in TinyTransformer.encoder() copy 0", "@Add");

  private static final NodeSource ENCODER0_NORM2_SOURCE = new NodeSource("encoder0_norm2",
      "EncoderBlock.norm2() in TinyTransformer.encoder() copy 0", "@LayerNorm");

  private static final NodeSource ENCODER0_HIDDEN_SOURCE = new NodeSource("encoder0_hidden",
      "EncoderBlock.hidden() in TinyTransformer.encoder() copy 0",
      "@Dense(units = 16, activation = Act.GELU, flatten = false)");

  private static final NodeSource ENCODER0_BACK_SOURCE = new NodeSource("encoder0_back",
      "EncoderBlock.back() in TinyTransformer.encoder() copy 0",
      "@Dense(units = 8, flatten = false)");

  private static final NodeSource ENCODER0_OUT_SOURCE = new NodeSource("encoder0_out",
      "EncoderBlock.out() in TinyTransformer.encoder() copy 0", "@Add");

  private static final NodeSource ENCODER1_NORM1_SOURCE = new NodeSource("encoder1_norm1",
      "EncoderBlock.norm1() in TinyTransformer.encoder() copy 1", "@LayerNorm");

  private static final NodeSource ENCODER1_ATTENTION_SOURCE = new NodeSource("encoder1_attention",
      "EncoderBlock.attention() in TinyTransformer.encoder() copy 1",
      "@MultiHeadAttention(heads = 2)");

  private static final NodeSource ENCODER1_MIXED_SOURCE = new NodeSource("encoder1_mixed",
      "EncoderBlock.mixed() in TinyTransformer.encoder() copy 1", "@Add");

  private static final NodeSource ENCODER1_NORM2_SOURCE = new NodeSource("encoder1_norm2",
      "EncoderBlock.norm2() in TinyTransformer.encoder() copy 1", "@LayerNorm");

  private static final NodeSource ENCODER1_HIDDEN_SOURCE = new NodeSource("encoder1_hidden",
      "EncoderBlock.hidden() in TinyTransformer.encoder() copy 1",
      "@Dense(units = 16, activation = Act.GELU, flatten = false)");

  private static final NodeSource ENCODER1_BACK_SOURCE = new NodeSource("encoder1_back",
      "EncoderBlock.back() in TinyTransformer.encoder() copy 1",
      "@Dense(units = 8, flatten = false)");

  private static final NodeSource ENCODER1_OUT_SOURCE = new NodeSource("encoder1_out",
      "EncoderBlock.out() in TinyTransformer.encoder() copy 1", "@Add");

  private static final NodeSource NORM_SOURCE = new NodeSource("norm", "TinyTransformer.norm()",
      "@LayerNorm");

  private static final NodeSource LOGITS_SOURCE = new NodeSource("logits",
      "TinyTransformer.logits()", "@Dense(units = 3)");

  private static final NodeSource PROBS_SOURCE = new NodeSource("probs", "TinyTransformer.probs()",
      "@Softmax");

  private final GraphBuilder builder;

  private TinyTransformerGraph(GraphBuilder builder) {
    this.builder = builder;
  }

  /**
   * Builds the graph of {@code TinyTransformer} with {@code builder}: calls every node method once,
   * each after the nodes it reads, and returns the graph, which the caller owns and must close. The
   * caller closes {@code builder} too.
   *
   * @param builder a new builder for {@code TinyTransformer}; with classifier training on, node
   *     {@code probs} becomes MXNet's {@code SoftmaxOutput} with label variable {@code probs_label}
   * @return the graph
   */
  public static Graph build(GraphBuilder builder) {
    TinyTransformerGraph graph = new TinyTransformerGraph(builder);
    Sym tokens = graph.tokens();
    Sym placed = graph.placed(tokens);
    Sym encoder = graph.encoder(placed);
    Sym norm = graph.norm(encoder);
    Sym logits = graph.logits(norm);
    Sym probs = graph.probs(logits);
    return builder.build(List.of(probs));
  }

  /**
   * Node {@code tokens}: {@code @Input(shape = {BATCH, 6, 8})}, output {@code [BATCH, 6, 8]}.
   */
  @Override
  public Sym tokens() {
    return this.builder.input(TOKENS_SOURCE, TOKENS_SHAPE);
  }

  /**
   * Node {@code placed}: {@code @PositionalEmbedding(steps = 6)}, output {@code [BATCH, 6, 8]}.
   */
  @Override
  public Sym placed(Sym tokens) {
    return this.builder.node(PLACED_SOURCE, PositionalEmbeddingOp.steps(6).width(8), tokens);
  }

  /**
   * Node {@code encoder}: {@code @Block(value = EncoderBlock.class, repeat = 2)}, 2 copies, one
   * after the other, of the nodes of {@code EncoderBlock}, each with its own parameters; output
   * {@code [BATCH, 6, 8]}.
   */
  @Override
  public Sym encoder(Sym placed) {
    Sym encoder0_norm1 = encoder0_norm1(placed);
    Sym encoder0_attention = encoder0_attention(encoder0_norm1);
    Sym encoder0_mixed = encoder0_mixed(placed, encoder0_attention);
    Sym encoder0_norm2 = encoder0_norm2(encoder0_mixed);
    Sym encoder0_hidden = encoder0_hidden(encoder0_norm2);
    Sym encoder0_back = encoder0_back(encoder0_hidden);
    Sym encoder0_out = encoder0_out(encoder0_mixed, encoder0_back);
    Sym encoder1_norm1 = encoder1_norm1(encoder0_out);
    Sym encoder1_attention = encoder1_attention(encoder1_norm1);
    Sym encoder1_mixed = encoder1_mixed(encoder0_out, encoder1_attention);
    Sym encoder1_norm2 = encoder1_norm2(encoder1_mixed);
    Sym encoder1_hidden = encoder1_hidden(encoder1_norm2);
    Sym encoder1_back = encoder1_back(encoder1_hidden);
    Sym encoder1_out = encoder1_out(encoder1_mixed, encoder1_back);
    return encoder1_out;
  }

  /**
   * Node {@code norm}: {@code @LayerNorm}, output {@code [BATCH, 6, 8]}.
   */
  @Override
  public Sym norm(Sym encoder) {
    return this.builder.node(NORM_SOURCE, LayerNormOp.axis(-1).eps(1e-5), encoder);
  }

  /**
   * Node {@code logits}: {@code @Dense(units = 3)}, output {@code [BATCH, 3]}.
   */
  @Override
  public Sym logits(Sym norm) {
    return this.builder.node(LOGITS_SOURCE, DenseOp.units(3), norm);
  }

  /**
   * Node {@code probs}: {@code @Softmax}, output {@code [BATCH, 3]}.
   */
  @Override
  public Sym probs(Sym logits) {
    return this.builder.node(PROBS_SOURCE, SoftmaxOp.axis(-1).classifierHead(), logits);
  }

  /**
   * Node {@code encoder0_norm1}, copy 0 of {@code EncoderBlock.norm1()} in block {@code encoder}:
   * {@code @LayerNorm}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder0_norm1(Sym x) {
    return this.builder.node(ENCODER0_NORM1_SOURCE, LayerNormOp.axis(-1).eps(1e-5), x);
  }

  /**
   * Node {@code encoder0_attention}, copy 0 of {@code EncoderBlock.attention()} in block
   * {@code encoder}: {@code @MultiHeadAttention(heads = 2)}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder0_attention(Sym norm1) {
    return this.builder.node(ENCODER0_ATTENTION_SOURCE, AttentionOp.heads(2).width(8), norm1);
  }

  /**
   * Node {@code encoder0_mixed}, copy 0 of {@code EncoderBlock.mixed()} in block {@code encoder}:
   * {@code @Add}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder0_mixed(Sym x, Sym attention) {
    return this.builder.node(ENCODER0_MIXED_SOURCE, AddOp.of(), x, attention);
  }

  /**
   * Node {@code encoder0_norm2}, copy 0 of {@code EncoderBlock.norm2()} in block {@code encoder}:
   * {@code @LayerNorm}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder0_norm2(Sym mixed) {
    return this.builder.node(ENCODER0_NORM2_SOURCE, LayerNormOp.axis(-1).eps(1e-5), mixed);
  }

  /**
   * Node {@code encoder0_hidden}, copy 0 of {@code EncoderBlock.hidden()} in block {@code encoder}:
   * {@code @Dense(units = 16, activation = Act.GELU, flatten = false)}, output
   * {@code [BATCH, 6, 16]}.
   */
  private Sym encoder0_hidden(Sym norm2) {
    return this.builder.node(ENCODER0_HIDDEN_SOURCE,
        DenseOp.units(16).activation(Act.GELU).flatten(false), norm2);
  }

  /**
   * Node {@code encoder0_back}, copy 0 of {@code EncoderBlock.back()} in block {@code encoder}:
   * {@code @Dense(units = 8, flatten = false)}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder0_back(Sym hidden) {
    return this.builder.node(ENCODER0_BACK_SOURCE, DenseOp.units(8).flatten(false), hidden);
  }

  /**
   * Node {@code encoder0_out}, copy 0 of {@code EncoderBlock.out()} in block {@code encoder}:
   * {@code @Add}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder0_out(Sym mixed, Sym back) {
    return this.builder.node(ENCODER0_OUT_SOURCE, AddOp.of(), mixed, back);
  }

  /**
   * Node {@code encoder1_norm1}, copy 1 of {@code EncoderBlock.norm1()} in block {@code encoder}:
   * {@code @LayerNorm}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder1_norm1(Sym x) {
    return this.builder.node(ENCODER1_NORM1_SOURCE, LayerNormOp.axis(-1).eps(1e-5), x);
  }

  /**
   * Node {@code encoder1_attention}, copy 1 of {@code EncoderBlock.attention()} in block
   * {@code encoder}: {@code @MultiHeadAttention(heads = 2)}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder1_attention(Sym norm1) {
    return this.builder.node(ENCODER1_ATTENTION_SOURCE, AttentionOp.heads(2).width(8), norm1);
  }

  /**
   * Node {@code encoder1_mixed}, copy 1 of {@code EncoderBlock.mixed()} in block {@code encoder}:
   * {@code @Add}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder1_mixed(Sym x, Sym attention) {
    return this.builder.node(ENCODER1_MIXED_SOURCE, AddOp.of(), x, attention);
  }

  /**
   * Node {@code encoder1_norm2}, copy 1 of {@code EncoderBlock.norm2()} in block {@code encoder}:
   * {@code @LayerNorm}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder1_norm2(Sym mixed) {
    return this.builder.node(ENCODER1_NORM2_SOURCE, LayerNormOp.axis(-1).eps(1e-5), mixed);
  }

  /**
   * Node {@code encoder1_hidden}, copy 1 of {@code EncoderBlock.hidden()} in block {@code encoder}:
   * {@code @Dense(units = 16, activation = Act.GELU, flatten = false)}, output
   * {@code [BATCH, 6, 16]}.
   */
  private Sym encoder1_hidden(Sym norm2) {
    return this.builder.node(ENCODER1_HIDDEN_SOURCE,
        DenseOp.units(16).activation(Act.GELU).flatten(false), norm2);
  }

  /**
   * Node {@code encoder1_back}, copy 1 of {@code EncoderBlock.back()} in block {@code encoder}:
   * {@code @Dense(units = 8, flatten = false)}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder1_back(Sym hidden) {
    return this.builder.node(ENCODER1_BACK_SOURCE, DenseOp.units(8).flatten(false), hidden);
  }

  /**
   * Node {@code encoder1_out}, copy 1 of {@code EncoderBlock.out()} in block {@code encoder}:
   * {@code @Add}, output {@code [BATCH, 6, 8]}.
   */
  private Sym encoder1_out(Sym mixed, Sym back) {
    return this.builder.node(ENCODER1_OUT_SOURCE, AddOp.of(), mixed, back);
  }
}
