package blocks;

import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.ExecArray;
import javax.annotation.processing.Generated;

/**
 * One MXNet executor of {@link TinyTransformer}, bound for one set of input shapes, from
 * {@link TinyTransformerModel#exec}.
 *
 * <p>Write inputs (and head gradients) into the arrays, call {@link #forward} and
 * {@link #backward}, read outputs and gradients. Parameter arrays are the model's own, shared by
 * all its executors. The model owns this executor and its arrays and frees them when closed.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class TinyTransformerExec {
  /**
   * Input {@code tokens}.
   */
  public final ExecArray tokens;

  /**
   * Gradient of input {@code tokens}, written by {@link #backward}.
   */
  public final ExecArray tokensGrad;

  /**
   * Parameter {@code placed_weight} [6, 8], shared by the model.
   */
  public final ExecArray placedWeight;

  /**
   * Accumulated gradient of {@code placed_weight}, shared by the model.
   */
  public final ExecArray placedWeightGrad;

  /**
   * Parameter {@code encoder0_norm1_gamma} [8], shared by the model.
   */
  public final ExecArray encoder0Norm1Gamma;

  /**
   * Accumulated gradient of {@code encoder0_norm1_gamma}, shared by the model.
   */
  public final ExecArray encoder0Norm1GammaGrad;

  /**
   * Parameter {@code encoder0_norm1_beta} [8], shared by the model.
   */
  public final ExecArray encoder0Norm1Beta;

  /**
   * Accumulated gradient of {@code encoder0_norm1_beta}, shared by the model.
   */
  public final ExecArray encoder0Norm1BetaGrad;

  /**
   * Parameter {@code encoder0_attention_query_weight} [8, 8], shared by the model.
   */
  public final ExecArray encoder0AttentionQueryWeight;

  /**
   * Accumulated gradient of {@code encoder0_attention_query_weight}, shared by the model.
   */
  public final ExecArray encoder0AttentionQueryWeightGrad;

  /**
   * Parameter {@code encoder0_attention_query_bias} [8], shared by the model.
   */
  public final ExecArray encoder0AttentionQueryBias;

  /**
   * Accumulated gradient of {@code encoder0_attention_query_bias}, shared by the model.
   */
  public final ExecArray encoder0AttentionQueryBiasGrad;

  /**
   * Parameter {@code encoder0_attention_key_weight} [8, 8], shared by the model.
   */
  public final ExecArray encoder0AttentionKeyWeight;

  /**
   * Accumulated gradient of {@code encoder0_attention_key_weight}, shared by the model.
   */
  public final ExecArray encoder0AttentionKeyWeightGrad;

  /**
   * Parameter {@code encoder0_attention_key_bias} [8], shared by the model.
   */
  public final ExecArray encoder0AttentionKeyBias;

  /**
   * Accumulated gradient of {@code encoder0_attention_key_bias}, shared by the model.
   */
  public final ExecArray encoder0AttentionKeyBiasGrad;

  /**
   * Parameter {@code encoder0_attention_value_weight} [8, 8], shared by the model.
   */
  public final ExecArray encoder0AttentionValueWeight;

  /**
   * Accumulated gradient of {@code encoder0_attention_value_weight}, shared by the model.
   */
  public final ExecArray encoder0AttentionValueWeightGrad;

  /**
   * Parameter {@code encoder0_attention_value_bias} [8], shared by the model.
   */
  public final ExecArray encoder0AttentionValueBias;

  /**
   * Accumulated gradient of {@code encoder0_attention_value_bias}, shared by the model.
   */
  public final ExecArray encoder0AttentionValueBiasGrad;

  /**
   * Parameter {@code encoder0_attention_output_weight} [8, 8], shared by the model.
   */
  public final ExecArray encoder0AttentionOutputWeight;

  /**
   * Accumulated gradient of {@code encoder0_attention_output_weight}, shared by the model.
   */
  public final ExecArray encoder0AttentionOutputWeightGrad;

  /**
   * Parameter {@code encoder0_attention_output_bias} [8], shared by the model.
   */
  public final ExecArray encoder0AttentionOutputBias;

  /**
   * Accumulated gradient of {@code encoder0_attention_output_bias}, shared by the model.
   */
  public final ExecArray encoder0AttentionOutputBiasGrad;

  /**
   * Parameter {@code encoder0_norm2_gamma} [8], shared by the model.
   */
  public final ExecArray encoder0Norm2Gamma;

  /**
   * Accumulated gradient of {@code encoder0_norm2_gamma}, shared by the model.
   */
  public final ExecArray encoder0Norm2GammaGrad;

  /**
   * Parameter {@code encoder0_norm2_beta} [8], shared by the model.
   */
  public final ExecArray encoder0Norm2Beta;

  /**
   * Accumulated gradient of {@code encoder0_norm2_beta}, shared by the model.
   */
  public final ExecArray encoder0Norm2BetaGrad;

  /**
   * Parameter {@code encoder0_hidden_weight} [16, 8], shared by the model.
   */
  public final ExecArray encoder0HiddenWeight;

  /**
   * Accumulated gradient of {@code encoder0_hidden_weight}, shared by the model.
   */
  public final ExecArray encoder0HiddenWeightGrad;

  /**
   * Parameter {@code encoder0_hidden_bias} [16], shared by the model.
   */
  public final ExecArray encoder0HiddenBias;

  /**
   * Accumulated gradient of {@code encoder0_hidden_bias}, shared by the model.
   */
  public final ExecArray encoder0HiddenBiasGrad;

  /**
   * Parameter {@code encoder0_back_weight} [8, 16], shared by the model.
   */
  public final ExecArray encoder0BackWeight;

  /**
   * Accumulated gradient of {@code encoder0_back_weight}, shared by the model.
   */
  public final ExecArray encoder0BackWeightGrad;

  /**
   * Parameter {@code encoder0_back_bias} [8], shared by the model.
   */
  public final ExecArray encoder0BackBias;

  /**
   * Accumulated gradient of {@code encoder0_back_bias}, shared by the model.
   */
  public final ExecArray encoder0BackBiasGrad;

  /**
   * Parameter {@code encoder1_norm1_gamma} [8], shared by the model.
   */
  public final ExecArray encoder1Norm1Gamma;

  /**
   * Accumulated gradient of {@code encoder1_norm1_gamma}, shared by the model.
   */
  public final ExecArray encoder1Norm1GammaGrad;

  /**
   * Parameter {@code encoder1_norm1_beta} [8], shared by the model.
   */
  public final ExecArray encoder1Norm1Beta;

  /**
   * Accumulated gradient of {@code encoder1_norm1_beta}, shared by the model.
   */
  public final ExecArray encoder1Norm1BetaGrad;

  /**
   * Parameter {@code encoder1_attention_query_weight} [8, 8], shared by the model.
   */
  public final ExecArray encoder1AttentionQueryWeight;

  /**
   * Accumulated gradient of {@code encoder1_attention_query_weight}, shared by the model.
   */
  public final ExecArray encoder1AttentionQueryWeightGrad;

  /**
   * Parameter {@code encoder1_attention_query_bias} [8], shared by the model.
   */
  public final ExecArray encoder1AttentionQueryBias;

  /**
   * Accumulated gradient of {@code encoder1_attention_query_bias}, shared by the model.
   */
  public final ExecArray encoder1AttentionQueryBiasGrad;

  /**
   * Parameter {@code encoder1_attention_key_weight} [8, 8], shared by the model.
   */
  public final ExecArray encoder1AttentionKeyWeight;

  /**
   * Accumulated gradient of {@code encoder1_attention_key_weight}, shared by the model.
   */
  public final ExecArray encoder1AttentionKeyWeightGrad;

  /**
   * Parameter {@code encoder1_attention_key_bias} [8], shared by the model.
   */
  public final ExecArray encoder1AttentionKeyBias;

  /**
   * Accumulated gradient of {@code encoder1_attention_key_bias}, shared by the model.
   */
  public final ExecArray encoder1AttentionKeyBiasGrad;

  /**
   * Parameter {@code encoder1_attention_value_weight} [8, 8], shared by the model.
   */
  public final ExecArray encoder1AttentionValueWeight;

  /**
   * Accumulated gradient of {@code encoder1_attention_value_weight}, shared by the model.
   */
  public final ExecArray encoder1AttentionValueWeightGrad;

  /**
   * Parameter {@code encoder1_attention_value_bias} [8], shared by the model.
   */
  public final ExecArray encoder1AttentionValueBias;

  /**
   * Accumulated gradient of {@code encoder1_attention_value_bias}, shared by the model.
   */
  public final ExecArray encoder1AttentionValueBiasGrad;

  /**
   * Parameter {@code encoder1_attention_output_weight} [8, 8], shared by the model.
   */
  public final ExecArray encoder1AttentionOutputWeight;

  /**
   * Accumulated gradient of {@code encoder1_attention_output_weight}, shared by the model.
   */
  public final ExecArray encoder1AttentionOutputWeightGrad;

  /**
   * Parameter {@code encoder1_attention_output_bias} [8], shared by the model.
   */
  public final ExecArray encoder1AttentionOutputBias;

  /**
   * Accumulated gradient of {@code encoder1_attention_output_bias}, shared by the model.
   */
  public final ExecArray encoder1AttentionOutputBiasGrad;

  /**
   * Parameter {@code encoder1_norm2_gamma} [8], shared by the model.
   */
  public final ExecArray encoder1Norm2Gamma;

  /**
   * Accumulated gradient of {@code encoder1_norm2_gamma}, shared by the model.
   */
  public final ExecArray encoder1Norm2GammaGrad;

  /**
   * Parameter {@code encoder1_norm2_beta} [8], shared by the model.
   */
  public final ExecArray encoder1Norm2Beta;

  /**
   * Accumulated gradient of {@code encoder1_norm2_beta}, shared by the model.
   */
  public final ExecArray encoder1Norm2BetaGrad;

  /**
   * Parameter {@code encoder1_hidden_weight} [16, 8], shared by the model.
   */
  public final ExecArray encoder1HiddenWeight;

  /**
   * Accumulated gradient of {@code encoder1_hidden_weight}, shared by the model.
   */
  public final ExecArray encoder1HiddenWeightGrad;

  /**
   * Parameter {@code encoder1_hidden_bias} [16], shared by the model.
   */
  public final ExecArray encoder1HiddenBias;

  /**
   * Accumulated gradient of {@code encoder1_hidden_bias}, shared by the model.
   */
  public final ExecArray encoder1HiddenBiasGrad;

  /**
   * Parameter {@code encoder1_back_weight} [8, 16], shared by the model.
   */
  public final ExecArray encoder1BackWeight;

  /**
   * Accumulated gradient of {@code encoder1_back_weight}, shared by the model.
   */
  public final ExecArray encoder1BackWeightGrad;

  /**
   * Parameter {@code encoder1_back_bias} [8], shared by the model.
   */
  public final ExecArray encoder1BackBias;

  /**
   * Accumulated gradient of {@code encoder1_back_bias}, shared by the model.
   */
  public final ExecArray encoder1BackBiasGrad;

  /**
   * Parameter {@code norm_gamma} [8], shared by the model.
   */
  public final ExecArray normGamma;

  /**
   * Accumulated gradient of {@code norm_gamma}, shared by the model.
   */
  public final ExecArray normGammaGrad;

  /**
   * Parameter {@code norm_beta} [8], shared by the model.
   */
  public final ExecArray normBeta;

  /**
   * Accumulated gradient of {@code norm_beta}, shared by the model.
   */
  public final ExecArray normBetaGrad;

  /**
   * Parameter {@code logits_weight} [3, 48], shared by the model.
   */
  public final ExecArray logitsWeight;

  /**
   * Accumulated gradient of {@code logits_weight}, shared by the model.
   */
  public final ExecArray logitsWeightGrad;

  /**
   * Parameter {@code logits_bias} [3], shared by the model.
   */
  public final ExecArray logitsBias;

  /**
   * Accumulated gradient of {@code logits_bias}, shared by the model.
   */
  public final ExecArray logitsBiasGrad;

  /**
   * Output {@code probs} of the latest {@link #forward}, read-only.
   */
  public final ExecArray probs;

  /**
   * Head gradient for output {@code probs}, read by {@link #backward}.
   */
  public final ExecArray probsHeadGrad;

  private final BoundExecutor executor;

  /**
   * Names the arrays that {@code executor} binds and the model's shared ones;
   * {@link TinyTransformerModel#exec} makes it.
   *
   * @param runtime the model's runtime, which owns the shared arrays
   * @param executor the executor bound for one set of input shapes
   */
  TinyTransformerExec(ModelRuntime runtime, BoundExecutor executor) {
    this.executor = executor;
    this.tokens = ExecArray.input("tokens", executor, 0);
    this.tokensGrad = ExecArray.inputGrad("tokens gradient", executor, 0);
    this.placedWeight = runtime.weightArray("placed_weight");
    this.placedWeightGrad = runtime.gradArray("placed_weight");
    this.encoder0Norm1Gamma = runtime.weightArray("encoder0_norm1_gamma");
    this.encoder0Norm1GammaGrad = runtime.gradArray("encoder0_norm1_gamma");
    this.encoder0Norm1Beta = runtime.weightArray("encoder0_norm1_beta");
    this.encoder0Norm1BetaGrad = runtime.gradArray("encoder0_norm1_beta");
    this.encoder0AttentionQueryWeight = runtime.weightArray("encoder0_attention_query_weight");
    this.encoder0AttentionQueryWeightGrad = runtime.gradArray("encoder0_attention_query_weight");
    this.encoder0AttentionQueryBias = runtime.weightArray("encoder0_attention_query_bias");
    this.encoder0AttentionQueryBiasGrad = runtime.gradArray("encoder0_attention_query_bias");
    this.encoder0AttentionKeyWeight = runtime.weightArray("encoder0_attention_key_weight");
    this.encoder0AttentionKeyWeightGrad = runtime.gradArray("encoder0_attention_key_weight");
    this.encoder0AttentionKeyBias = runtime.weightArray("encoder0_attention_key_bias");
    this.encoder0AttentionKeyBiasGrad = runtime.gradArray("encoder0_attention_key_bias");
    this.encoder0AttentionValueWeight = runtime.weightArray("encoder0_attention_value_weight");
    this.encoder0AttentionValueWeightGrad = runtime.gradArray("encoder0_attention_value_weight");
    this.encoder0AttentionValueBias = runtime.weightArray("encoder0_attention_value_bias");
    this.encoder0AttentionValueBiasGrad = runtime.gradArray("encoder0_attention_value_bias");
    this.encoder0AttentionOutputWeight = runtime.weightArray("encoder0_attention_output_weight");
    this.encoder0AttentionOutputWeightGrad = runtime.gradArray("encoder0_attention_output_weight");
    this.encoder0AttentionOutputBias = runtime.weightArray("encoder0_attention_output_bias");
    this.encoder0AttentionOutputBiasGrad = runtime.gradArray("encoder0_attention_output_bias");
    this.encoder0Norm2Gamma = runtime.weightArray("encoder0_norm2_gamma");
    this.encoder0Norm2GammaGrad = runtime.gradArray("encoder0_norm2_gamma");
    this.encoder0Norm2Beta = runtime.weightArray("encoder0_norm2_beta");
    this.encoder0Norm2BetaGrad = runtime.gradArray("encoder0_norm2_beta");
    this.encoder0HiddenWeight = runtime.weightArray("encoder0_hidden_weight");
    this.encoder0HiddenWeightGrad = runtime.gradArray("encoder0_hidden_weight");
    this.encoder0HiddenBias = runtime.weightArray("encoder0_hidden_bias");
    this.encoder0HiddenBiasGrad = runtime.gradArray("encoder0_hidden_bias");
    this.encoder0BackWeight = runtime.weightArray("encoder0_back_weight");
    this.encoder0BackWeightGrad = runtime.gradArray("encoder0_back_weight");
    this.encoder0BackBias = runtime.weightArray("encoder0_back_bias");
    this.encoder0BackBiasGrad = runtime.gradArray("encoder0_back_bias");
    this.encoder1Norm1Gamma = runtime.weightArray("encoder1_norm1_gamma");
    this.encoder1Norm1GammaGrad = runtime.gradArray("encoder1_norm1_gamma");
    this.encoder1Norm1Beta = runtime.weightArray("encoder1_norm1_beta");
    this.encoder1Norm1BetaGrad = runtime.gradArray("encoder1_norm1_beta");
    this.encoder1AttentionQueryWeight = runtime.weightArray("encoder1_attention_query_weight");
    this.encoder1AttentionQueryWeightGrad = runtime.gradArray("encoder1_attention_query_weight");
    this.encoder1AttentionQueryBias = runtime.weightArray("encoder1_attention_query_bias");
    this.encoder1AttentionQueryBiasGrad = runtime.gradArray("encoder1_attention_query_bias");
    this.encoder1AttentionKeyWeight = runtime.weightArray("encoder1_attention_key_weight");
    this.encoder1AttentionKeyWeightGrad = runtime.gradArray("encoder1_attention_key_weight");
    this.encoder1AttentionKeyBias = runtime.weightArray("encoder1_attention_key_bias");
    this.encoder1AttentionKeyBiasGrad = runtime.gradArray("encoder1_attention_key_bias");
    this.encoder1AttentionValueWeight = runtime.weightArray("encoder1_attention_value_weight");
    this.encoder1AttentionValueWeightGrad = runtime.gradArray("encoder1_attention_value_weight");
    this.encoder1AttentionValueBias = runtime.weightArray("encoder1_attention_value_bias");
    this.encoder1AttentionValueBiasGrad = runtime.gradArray("encoder1_attention_value_bias");
    this.encoder1AttentionOutputWeight = runtime.weightArray("encoder1_attention_output_weight");
    this.encoder1AttentionOutputWeightGrad = runtime.gradArray("encoder1_attention_output_weight");
    this.encoder1AttentionOutputBias = runtime.weightArray("encoder1_attention_output_bias");
    this.encoder1AttentionOutputBiasGrad = runtime.gradArray("encoder1_attention_output_bias");
    this.encoder1Norm2Gamma = runtime.weightArray("encoder1_norm2_gamma");
    this.encoder1Norm2GammaGrad = runtime.gradArray("encoder1_norm2_gamma");
    this.encoder1Norm2Beta = runtime.weightArray("encoder1_norm2_beta");
    this.encoder1Norm2BetaGrad = runtime.gradArray("encoder1_norm2_beta");
    this.encoder1HiddenWeight = runtime.weightArray("encoder1_hidden_weight");
    this.encoder1HiddenWeightGrad = runtime.gradArray("encoder1_hidden_weight");
    this.encoder1HiddenBias = runtime.weightArray("encoder1_hidden_bias");
    this.encoder1HiddenBiasGrad = runtime.gradArray("encoder1_hidden_bias");
    this.encoder1BackWeight = runtime.weightArray("encoder1_back_weight");
    this.encoder1BackWeightGrad = runtime.gradArray("encoder1_back_weight");
    this.encoder1BackBias = runtime.weightArray("encoder1_back_bias");
    this.encoder1BackBiasGrad = runtime.gradArray("encoder1_back_bias");
    this.normGamma = runtime.weightArray("norm_gamma");
    this.normGammaGrad = runtime.gradArray("norm_gamma");
    this.normBeta = runtime.weightArray("norm_beta");
    this.normBetaGrad = runtime.gradArray("norm_beta");
    this.logitsWeight = runtime.weightArray("logits_weight");
    this.logitsWeightGrad = runtime.gradArray("logits_weight");
    this.logitsBias = runtime.weightArray("logits_bias");
    this.logitsBiasGrad = runtime.gradArray("logits_bias");
    this.probs = ExecArray.output("probs", executor, 0);
    this.probsHeadGrad = ExecArray.headGrad("probs head gradient", executor, 0);
  }

  /**
   * Runs the forward pass over the input arrays, in training mode if {@code train}.
   *
   * @param train true for training mode
   */
  public void forward(boolean train) {
    executor.forward(train);
  }

  /**
   * Runs the backward pass with the head-gradient arrays; parameter gradients add up.
   */
  public void backward() {
    executor.backward();
  }
}
