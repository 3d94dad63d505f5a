package blocks;

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
 * The trainable {@link TinyTransformer} model on MXNet.
 *
 * <p>Executors are bound per set of input shapes on first use and cached; all of them share one set
 * of parameter and gradient arrays. Gradients add up over {@link #backward} calls until
 * {@link #update(float)} applies and zeroes them. {@link #close()} frees every native handle.
 *
 * <p>Its nodes as the processor checked them, with the output shape, parameter count and, per
 * example, the forward FLOPs and output bytes of each ({@link #SUMMARY} holds the same table):
 *
 * <pre>
 * node              layer / MXNet op                output          params  flops/ex  act/ex
 * tokens            @Input(shape = {BATCH, 6, 8})   [BATCH, 6, 8]        0         0   192 B
 *                     variable
 * placed            @PositionalEmbedding(steps =    [BATCH, 6, 8]       48        48   192 B
 *                       6)
 *                     broadcast_add
 * encoder0_norm1    @LayerNorm                      [BATCH, 6, 8]       16       336   192 B
 *                     LayerNorm
 * encoder0_attention
 *                   &#64;MultiHeadAttention(heads = 2)  [BATCH, 6, 8]      288      4704   192 B
 *                     batch_dot+softmax
 * encoder0_mixed    @Add                            [BATCH, 6, 8]        0        48   192 B
 *                     elemwise_add
 * encoder0_norm2    @LayerNorm                      [BATCH, 6, 8]       16       336   192 B
 *                     LayerNorm
 * encoder0_hidden   @Dense(units = 16,              [BATCH, 6, 16]     144      1728   384 B
 *                       activation = Act.GELU,
 *                       flatten = false)
 *                     FullyConnected+LeakyReLU(gel
 *                       u)
 * encoder0_back     @Dense(units = 8,               [BATCH, 6, 8]      136      1584   192 B
 *                       flatten = false)
 *                     FullyConnected
 * encoder0_out      @Add                            [BATCH, 6, 8]        0        48   192 B
 *                     elemwise_add
 * encoder1_norm1    @LayerNorm                      [BATCH, 6, 8]       16       336   192 B
 *                     LayerNorm
 * encoder1_attention
 *                   &#64;MultiHeadAttention(heads = 2)  [BATCH, 6, 8]      288      4704   192 B
 *                     batch_dot+softmax
 * encoder1_mixed    @Add                            [BATCH, 6, 8]        0        48   192 B
 *                     elemwise_add
 * encoder1_norm2    @LayerNorm                      [BATCH, 6, 8]       16       336   192 B
 *                     LayerNorm
 * encoder1_hidden   @Dense(units = 16,              [BATCH, 6, 16]     144      1728   384 B
 *                       activation = Act.GELU,
 *                       flatten = false)
 *                     FullyConnected+LeakyReLU(gel
 *                       u)
 * encoder1_back     @Dense(units = 8,               [BATCH, 6, 8]      136      1584   192 B
 *                       flatten = false)
 *                     FullyConnected
 * encoder1_out      @Add                            [BATCH, 6, 8]        0        48   192 B
 *                     elemwise_add
 * norm              @LayerNorm                      [BATCH, 6, 8]       16       336   192 B
 *                     LayerNorm
 * logits            @Dense(units = 3)               [BATCH, 3]         147       291    12 B
 *                     FullyConnected
 * probs             @Softmax                        [BATCH, 3]           0         9    12 B
 *                     softmax
 * total                                                               1411    18.3 K  3672 B
 * </pre>
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class TinyTransformerModel implements KilnModel {
  /**
   * The model's name and layer table, as {@link #summary()} returns them: a constant, so that tools
   * can show it without creating a model, which starts MXNet.
   */
  public static final String SUMMARY = """
      TinyTransformer
      node              layer / MXNet op                output          params  flops/ex  act/ex
      tokens            @Input(shape = {BATCH, 6, 8})   [BATCH, 6, 8]        0         0   192 B
                          variable
      placed            @PositionalEmbedding(steps =    [BATCH, 6, 8]       48        48   192 B
                            6)
                          broadcast_add
      encoder0_norm1    @LayerNorm                      [BATCH, 6, 8]       16       336   192 B
                          LayerNorm
      encoder0_attention
                        @MultiHeadAttention(heads = 2)  [BATCH, 6, 8]      288      4704   192 B
                          batch_dot+softmax
      encoder0_mixed    @Add                            [BATCH, 6, 8]        0        48   192 B
                          elemwise_add
      encoder0_norm2    @LayerNorm                      [BATCH, 6, 8]       16       336   192 B
                          LayerNorm
      encoder0_hidden   @Dense(units = 16,              [BATCH, 6, 16]     144      1728   384 B
                            activation = Act.GELU,
                            flatten = false)
                          FullyConnected+LeakyReLU(gel
                            u)
      encoder0_back     @Dense(units = 8,               [BATCH, 6, 8]      136      1584   192 B
                            flatten = false)
                          FullyConnected
      encoder0_out      @Add                            [BATCH, 6, 8]        0        48   192 B
                          elemwise_add
      encoder1_norm1    @LayerNorm                      [BATCH, 6, 8]       16       336   192 B
                          LayerNorm
      encoder1_attention
                        @MultiHeadAttention(heads = 2)  [BATCH, 6, 8]      288      4704   192 B
                          batch_dot+softmax
      encoder1_mixed    @Add                            [BATCH, 6, 8]        0        48   192 B
                          elemwise_add
      encoder1_norm2    @LayerNorm                      [BATCH, 6, 8]       16       336   192 B
                          LayerNorm
      encoder1_hidden   @Dense(units = 16,              [BATCH, 6, 16]     144      1728   384 B
                            activation = Act.GELU,
                            flatten = false)
                          FullyConnected+LeakyReLU(gel
                            u)
      encoder1_back     @Dense(units = 8,               [BATCH, 6, 8]      136      1584   192 B
                            flatten = false)
                          FullyConnected
      encoder1_out      @Add                            [BATCH, 6, 8]        0        48   192 B
                          elemwise_add
      norm              @LayerNorm                      [BATCH, 6, 8]       16       336   192 B
                          LayerNorm
      logits            @Dense(units = 3)               [BATCH, 3]         147       291    12 B
                          FullyConnected
      probs             @Softmax                        [BATCH, 3]           0         9    12 B
                          softmax
      total                                                               1411    18.3 K  3672 B
      """;

  private static final List<InputSpec> INPUTS = List.of(
      new InputSpec("tokens", TinyTransformerGraph.TOKENS_SHAPE));

  private static final List<String> OUTPUTS = List.of("probs");

  private final ModelRuntime runtime;

  private final Params params;

  private TinyTransformerModel(ModelRuntime runtime) {
    this.runtime = runtime;
    this.params = new Params(runtime);
  }

  /**
   * A new model on the CPU with Xavier-initialised weights, zero biases, seed 0.
   *
   * @return the model, which the caller must close
   */
  public static TinyTransformerModel create() {
    return create(Init.xavier(), 0L);
  }

  /**
   * A new model whose weights {@code init} fills from {@code seed}; biases start at zero. The same
   * seed gives the same parameters.
   *
   * @param init fills the weights
   * @param seed seeds {@code init}
   * @return the model, which the caller must close
   */
  public static TinyTransformerModel create(Init init, long seed) {
    return new TinyTransformerModel(new ModelRuntime("TinyTransformerModel", graph(false), init,
        seed));
  }

  /**
   * A new graph of {@code TinyTransformer}, built by {@link TinyTransformerGraph}; with
   * {@code training}, for training against labels (the head as its training loss). The caller owns
   * it.
   */
  private static Graph graph(boolean training) {
    try (GraphBuilder builder = new GraphBuilder("TinyTransformer", training)) {
      return TinyTransformerGraph.build(builder);
    }
  }

  /**
   * Loads the checkpoint {@code prefix-0000.params} written by {@link #save}. Every parameter must
   * be present with its exact shape.
   *
   * @param prefix the checkpoint's path without {@code -0000.params}
   * @return the model, which the caller must close
   */
  public static TinyTransformerModel load(Path prefix) {
    TinyTransformerModel model = create(Init.constant(0f), 0L);
    try {
      model.runtime.loadParams(prefix);
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    return model;
  }

  /**
   * The generated class's simple name, {@code TinyTransformerModel}.
   */
  @Override
  public String name() {
    return "TinyTransformerModel";
  }

  /**
   * The inputs in declaration order, with their declared shapes: {@code tokens [BATCH, 6, 8]}.
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
   * @param tokens input {@code tokens}, float32 of shape {@code [BATCH, 6, 8]}
   * @return output {@code probs}, of shape {@code [BATCH, 3]}
   */
  public NDArray forward(NDArray tokens) {
    return runtime.forward(tokens)[0];
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
   * @param tokens complete shape of input {@code tokens}, accepted by {@code [BATCH, 6, 8]}
   * @return the typed executor
   */
  public TinyTransformerExec exec(Shape tokens) {
    return new TinyTransformerExec(runtime, runtime.executor(List.of(tokens)));
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
   * @param tokens gradient of input {@code tokens}
   */
  public record Gradients(NDArray tokens) {
  }

  /**
   * Typed access to the parameters (and auxiliary states) of {@code TinyTransformer}; reads and
   * writes go to the arrays every executor shares.
   */
  public static final class Params implements KilnModel.ModelParams {
    private final ModelRuntime runtime;

    private Params(ModelRuntime runtime) {
      this.runtime = runtime;
    }

    /**
     * Parameter {@code placed_weight} of node {@code placed}
     * ({@code @PositionalEmbedding(steps = 6)}), shape {@code [6, 8]}.
     */
    public Parameter placedWeight() {
      return runtime.param("placed_weight");
    }

    /**
     * Parameter {@code encoder0_norm1_gamma} of node {@code encoder0_norm1} ({@code @LayerNorm}),
     * shape {@code [8]}.
     */
    public Parameter encoder0Norm1Gamma() {
      return runtime.param("encoder0_norm1_gamma");
    }

    /**
     * Parameter {@code encoder0_norm1_beta} of node {@code encoder0_norm1} ({@code @LayerNorm}),
     * shape {@code [8]}.
     */
    public Parameter encoder0Norm1Beta() {
      return runtime.param("encoder0_norm1_beta");
    }

    /**
     * Parameter {@code encoder0_attention_query_weight} of node {@code encoder0_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8, 8]}.
     */
    public Parameter encoder0AttentionQueryWeight() {
      return runtime.param("encoder0_attention_query_weight");
    }

    /**
     * Parameter {@code encoder0_attention_query_bias} of node {@code encoder0_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8]}.
     */
    public Parameter encoder0AttentionQueryBias() {
      return runtime.param("encoder0_attention_query_bias");
    }

    /**
     * Parameter {@code encoder0_attention_key_weight} of node {@code encoder0_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8, 8]}.
     */
    public Parameter encoder0AttentionKeyWeight() {
      return runtime.param("encoder0_attention_key_weight");
    }

    /**
     * Parameter {@code encoder0_attention_key_bias} of node {@code encoder0_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8]}.
     */
    public Parameter encoder0AttentionKeyBias() {
      return runtime.param("encoder0_attention_key_bias");
    }

    /**
     * Parameter {@code encoder0_attention_value_weight} of node {@code encoder0_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8, 8]}.
     */
    public Parameter encoder0AttentionValueWeight() {
      return runtime.param("encoder0_attention_value_weight");
    }

    /**
     * Parameter {@code encoder0_attention_value_bias} of node {@code encoder0_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8]}.
     */
    public Parameter encoder0AttentionValueBias() {
      return runtime.param("encoder0_attention_value_bias");
    }

    /**
     * Parameter {@code encoder0_attention_output_weight} of node {@code encoder0_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8, 8]}.
     */
    public Parameter encoder0AttentionOutputWeight() {
      return runtime.param("encoder0_attention_output_weight");
    }

    /**
     * Parameter {@code encoder0_attention_output_bias} of node {@code encoder0_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8]}.
     */
    public Parameter encoder0AttentionOutputBias() {
      return runtime.param("encoder0_attention_output_bias");
    }

    /**
     * Parameter {@code encoder0_norm2_gamma} of node {@code encoder0_norm2} ({@code @LayerNorm}),
     * shape {@code [8]}.
     */
    public Parameter encoder0Norm2Gamma() {
      return runtime.param("encoder0_norm2_gamma");
    }

    /**
     * Parameter {@code encoder0_norm2_beta} of node {@code encoder0_norm2} ({@code @LayerNorm}),
     * shape {@code [8]}.
     */
    public Parameter encoder0Norm2Beta() {
      return runtime.param("encoder0_norm2_beta");
    }

    /**
     * Parameter {@code encoder0_hidden_weight} of node {@code encoder0_hidden}
     * ({@code @Dense(units = 16, activation = Act.GELU, flatten = false)}), shape {@code [16, 8]}.
     */
    public Parameter encoder0HiddenWeight() {
      return runtime.param("encoder0_hidden_weight");
    }

    /**
     * Parameter {@code encoder0_hidden_bias} of node {@code encoder0_hidden}
     * ({@code @Dense(units = 16, activation = Act.GELU, flatten = false)}), shape {@code [16]}.
     */
    public Parameter encoder0HiddenBias() {
      return runtime.param("encoder0_hidden_bias");
    }

    /**
     * Parameter {@code encoder0_back_weight} of node {@code encoder0_back}
     * ({@code @Dense(units = 8, flatten = false)}), shape {@code [8, 16]}.
     */
    public Parameter encoder0BackWeight() {
      return runtime.param("encoder0_back_weight");
    }

    /**
     * Parameter {@code encoder0_back_bias} of node {@code encoder0_back}
     * ({@code @Dense(units = 8, flatten = false)}), shape {@code [8]}.
     */
    public Parameter encoder0BackBias() {
      return runtime.param("encoder0_back_bias");
    }

    /**
     * Parameter {@code encoder1_norm1_gamma} of node {@code encoder1_norm1} ({@code @LayerNorm}),
     * shape {@code [8]}.
     */
    public Parameter encoder1Norm1Gamma() {
      return runtime.param("encoder1_norm1_gamma");
    }

    /**
     * Parameter {@code encoder1_norm1_beta} of node {@code encoder1_norm1} ({@code @LayerNorm}),
     * shape {@code [8]}.
     */
    public Parameter encoder1Norm1Beta() {
      return runtime.param("encoder1_norm1_beta");
    }

    /**
     * Parameter {@code encoder1_attention_query_weight} of node {@code encoder1_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8, 8]}.
     */
    public Parameter encoder1AttentionQueryWeight() {
      return runtime.param("encoder1_attention_query_weight");
    }

    /**
     * Parameter {@code encoder1_attention_query_bias} of node {@code encoder1_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8]}.
     */
    public Parameter encoder1AttentionQueryBias() {
      return runtime.param("encoder1_attention_query_bias");
    }

    /**
     * Parameter {@code encoder1_attention_key_weight} of node {@code encoder1_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8, 8]}.
     */
    public Parameter encoder1AttentionKeyWeight() {
      return runtime.param("encoder1_attention_key_weight");
    }

    /**
     * Parameter {@code encoder1_attention_key_bias} of node {@code encoder1_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8]}.
     */
    public Parameter encoder1AttentionKeyBias() {
      return runtime.param("encoder1_attention_key_bias");
    }

    /**
     * Parameter {@code encoder1_attention_value_weight} of node {@code encoder1_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8, 8]}.
     */
    public Parameter encoder1AttentionValueWeight() {
      return runtime.param("encoder1_attention_value_weight");
    }

    /**
     * Parameter {@code encoder1_attention_value_bias} of node {@code encoder1_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8]}.
     */
    public Parameter encoder1AttentionValueBias() {
      return runtime.param("encoder1_attention_value_bias");
    }

    /**
     * Parameter {@code encoder1_attention_output_weight} of node {@code encoder1_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8, 8]}.
     */
    public Parameter encoder1AttentionOutputWeight() {
      return runtime.param("encoder1_attention_output_weight");
    }

    /**
     * Parameter {@code encoder1_attention_output_bias} of node {@code encoder1_attention}
     * ({@code @MultiHeadAttention(heads = 2)}), shape {@code [8]}.
     */
    public Parameter encoder1AttentionOutputBias() {
      return runtime.param("encoder1_attention_output_bias");
    }

    /**
     * Parameter {@code encoder1_norm2_gamma} of node {@code encoder1_norm2} ({@code @LayerNorm}),
     * shape {@code [8]}.
     */
    public Parameter encoder1Norm2Gamma() {
      return runtime.param("encoder1_norm2_gamma");
    }

    /**
     * Parameter {@code encoder1_norm2_beta} of node {@code encoder1_norm2} ({@code @LayerNorm}),
     * shape {@code [8]}.
     */
    public Parameter encoder1Norm2Beta() {
      return runtime.param("encoder1_norm2_beta");
    }

    /**
     * Parameter {@code encoder1_hidden_weight} of node {@code encoder1_hidden}
     * ({@code @Dense(units = 16, activation = Act.GELU, flatten = false)}), shape {@code [16, 8]}.
     */
    public Parameter encoder1HiddenWeight() {
      return runtime.param("encoder1_hidden_weight");
    }

    /**
     * Parameter {@code encoder1_hidden_bias} of node {@code encoder1_hidden}
     * ({@code @Dense(units = 16, activation = Act.GELU, flatten = false)}), shape {@code [16]}.
     */
    public Parameter encoder1HiddenBias() {
      return runtime.param("encoder1_hidden_bias");
    }

    /**
     * Parameter {@code encoder1_back_weight} of node {@code encoder1_back}
     * ({@code @Dense(units = 8, flatten = false)}), shape {@code [8, 16]}.
     */
    public Parameter encoder1BackWeight() {
      return runtime.param("encoder1_back_weight");
    }

    /**
     * Parameter {@code encoder1_back_bias} of node {@code encoder1_back}
     * ({@code @Dense(units = 8, flatten = false)}), shape {@code [8]}.
     */
    public Parameter encoder1BackBias() {
      return runtime.param("encoder1_back_bias");
    }

    /**
     * Parameter {@code norm_gamma} of node {@code norm} ({@code @LayerNorm}), shape {@code [8]}.
     */
    public Parameter normGamma() {
      return runtime.param("norm_gamma");
    }

    /**
     * Parameter {@code norm_beta} of node {@code norm} ({@code @LayerNorm}), shape {@code [8]}.
     */
    public Parameter normBeta() {
      return runtime.param("norm_beta");
    }

    /**
     * Parameter {@code logits_weight} of node {@code logits} ({@code @Dense(units = 3)}), shape
     * {@code [3, 48]}.
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
     * The parameter or auxiliary state called {@code name}, e.g. {@code placed_weight}.
     *
     * @param name MXNet's name for it
     * @return typed access to it
     * @throws IllegalArgumentException if the model has none of that name
     */
    @Override
    public Parameter get(String name) {
      return switch (name) {
        case "placed_weight" -> placedWeight();
        case "encoder0_norm1_gamma" -> encoder0Norm1Gamma();
        case "encoder0_norm1_beta" -> encoder0Norm1Beta();
        case "encoder0_attention_query_weight" -> encoder0AttentionQueryWeight();
        case "encoder0_attention_query_bias" -> encoder0AttentionQueryBias();
        case "encoder0_attention_key_weight" -> encoder0AttentionKeyWeight();
        case "encoder0_attention_key_bias" -> encoder0AttentionKeyBias();
        case "encoder0_attention_value_weight" -> encoder0AttentionValueWeight();
        case "encoder0_attention_value_bias" -> encoder0AttentionValueBias();
        case "encoder0_attention_output_weight" -> encoder0AttentionOutputWeight();
        case "encoder0_attention_output_bias" -> encoder0AttentionOutputBias();
        case "encoder0_norm2_gamma" -> encoder0Norm2Gamma();
        case "encoder0_norm2_beta" -> encoder0Norm2Beta();
        case "encoder0_hidden_weight" -> encoder0HiddenWeight();
        case "encoder0_hidden_bias" -> encoder0HiddenBias();
        case "encoder0_back_weight" -> encoder0BackWeight();
        case "encoder0_back_bias" -> encoder0BackBias();
        case "encoder1_norm1_gamma" -> encoder1Norm1Gamma();
        case "encoder1_norm1_beta" -> encoder1Norm1Beta();
        case "encoder1_attention_query_weight" -> encoder1AttentionQueryWeight();
        case "encoder1_attention_query_bias" -> encoder1AttentionQueryBias();
        case "encoder1_attention_key_weight" -> encoder1AttentionKeyWeight();
        case "encoder1_attention_key_bias" -> encoder1AttentionKeyBias();
        case "encoder1_attention_value_weight" -> encoder1AttentionValueWeight();
        case "encoder1_attention_value_bias" -> encoder1AttentionValueBias();
        case "encoder1_attention_output_weight" -> encoder1AttentionOutputWeight();
        case "encoder1_attention_output_bias" -> encoder1AttentionOutputBias();
        case "encoder1_norm2_gamma" -> encoder1Norm2Gamma();
        case "encoder1_norm2_beta" -> encoder1Norm2Beta();
        case "encoder1_hidden_weight" -> encoder1HiddenWeight();
        case "encoder1_hidden_bias" -> encoder1HiddenBias();
        case "encoder1_back_weight" -> encoder1BackWeight();
        case "encoder1_back_bias" -> encoder1BackBias();
        case "norm_gamma" -> normGamma();
        case "norm_beta" -> normBeta();
        case "logits_weight" -> logitsWeight();
        case "logits_bias" -> logitsBias();
        default -> throw new IllegalArgumentException(
            "TinyTransformerModel has no parameter or auxiliary state '" + name + "'");
      };
    }
  }
}
