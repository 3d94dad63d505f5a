package lenet;

import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.ExecArray;
import javax.annotation.processing.Generated;

/**
 * One MXNet executor of {@link LeNet}, bound for one set of input shapes, from
 * {@link LeNetModel#exec}.
 *
 * <p>Write inputs (and head gradients) into the arrays, call {@link #forward} and
 * {@link #backward}, read outputs and gradients. Parameter arrays are the model's own, shared by
 * all its executors. The model owns this executor and its arrays and frees them when closed.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class LeNetExec {
  /**
   * Input {@code pixels}.
   */
  public final ExecArray pixels;

  /**
   * Gradient of input {@code pixels}, written by {@link #backward}.
   */
  public final ExecArray pixelsGrad;

  /**
   * Parameter {@code conv1_weight} [6, 1, 5, 5], shared by the model.
   */
  public final ExecArray conv1Weight;

  /**
   * Accumulated gradient of {@code conv1_weight}, shared by the model.
   */
  public final ExecArray conv1WeightGrad;

  /**
   * Parameter {@code conv1_bias} [6], shared by the model.
   */
  public final ExecArray conv1Bias;

  /**
   * Accumulated gradient of {@code conv1_bias}, shared by the model.
   */
  public final ExecArray conv1BiasGrad;

  /**
   * Parameter {@code bn1_gamma} [6], shared by the model.
   */
  public final ExecArray bn1Gamma;

  /**
   * Accumulated gradient of {@code bn1_gamma}, shared by the model.
   */
  public final ExecArray bn1GammaGrad;

  /**
   * Parameter {@code bn1_beta} [6], shared by the model.
   */
  public final ExecArray bn1Beta;

  /**
   * Accumulated gradient of {@code bn1_beta}, shared by the model.
   */
  public final ExecArray bn1BetaGrad;

  /**
   * Parameter {@code conv2_weight} [16, 6, 5, 5], shared by the model.
   */
  public final ExecArray conv2Weight;

  /**
   * Accumulated gradient of {@code conv2_weight}, shared by the model.
   */
  public final ExecArray conv2WeightGrad;

  /**
   * Parameter {@code conv2_bias} [16], shared by the model.
   */
  public final ExecArray conv2Bias;

  /**
   * Accumulated gradient of {@code conv2_bias}, shared by the model.
   */
  public final ExecArray conv2BiasGrad;

  /**
   * Parameter {@code hidden_weight} [120, 400], shared by the model.
   */
  public final ExecArray hiddenWeight;

  /**
   * Accumulated gradient of {@code hidden_weight}, shared by the model.
   */
  public final ExecArray hiddenWeightGrad;

  /**
   * Parameter {@code hidden_bias} [120], shared by the model.
   */
  public final ExecArray hiddenBias;

  /**
   * Accumulated gradient of {@code hidden_bias}, shared by the model.
   */
  public final ExecArray hiddenBiasGrad;

  /**
   * Parameter {@code logits_weight} [10, 120], shared by the model.
   */
  public final ExecArray logitsWeight;

  /**
   * Accumulated gradient of {@code logits_weight}, shared by the model.
   */
  public final ExecArray logitsWeightGrad;

  /**
   * Parameter {@code logits_bias} [10], shared by the model.
   */
  public final ExecArray logitsBias;

  /**
   * Accumulated gradient of {@code logits_bias}, shared by the model.
   */
  public final ExecArray logitsBiasGrad;

  /**
   * Auxiliary state {@code bn1_moving_mean} [6], shared by the model.
   */
  public final ExecArray bn1MovingMean;

  /**
   * Auxiliary state {@code bn1_moving_var} [6], shared by the model.
   */
  public final ExecArray bn1MovingVar;

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
   * {@link LeNetModel#exec} makes it.
   *
   * @param runtime the model's runtime, which owns the shared arrays
   * @param executor the executor bound for one set of input shapes
   */
  LeNetExec(ModelRuntime runtime, BoundExecutor executor) {
    this.executor = executor;
    this.pixels = ExecArray.input("pixels", executor, 0);
    this.pixelsGrad = ExecArray.inputGrad("pixels gradient", executor, 0);
    this.conv1Weight = runtime.weightArray("conv1_weight");
    this.conv1WeightGrad = runtime.gradArray("conv1_weight");
    this.conv1Bias = runtime.weightArray("conv1_bias");
    this.conv1BiasGrad = runtime.gradArray("conv1_bias");
    this.bn1Gamma = runtime.weightArray("bn1_gamma");
    this.bn1GammaGrad = runtime.gradArray("bn1_gamma");
    this.bn1Beta = runtime.weightArray("bn1_beta");
    this.bn1BetaGrad = runtime.gradArray("bn1_beta");
    this.conv2Weight = runtime.weightArray("conv2_weight");
    this.conv2WeightGrad = runtime.gradArray("conv2_weight");
    this.conv2Bias = runtime.weightArray("conv2_bias");
    this.conv2BiasGrad = runtime.gradArray("conv2_bias");
    this.hiddenWeight = runtime.weightArray("hidden_weight");
    this.hiddenWeightGrad = runtime.gradArray("hidden_weight");
    this.hiddenBias = runtime.weightArray("hidden_bias");
    this.hiddenBiasGrad = runtime.gradArray("hidden_bias");
    this.logitsWeight = runtime.weightArray("logits_weight");
    this.logitsWeightGrad = runtime.gradArray("logits_weight");
    this.logitsBias = runtime.weightArray("logits_bias");
    this.logitsBiasGrad = runtime.gradArray("logits_bias");
    this.bn1MovingMean = runtime.auxArray("bn1_moving_mean");
    this.bn1MovingVar = runtime.auxArray("bn1_moving_var");
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
