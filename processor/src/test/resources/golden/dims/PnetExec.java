package dims;

import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.ExecArray;
import javax.annotation.processing.Generated;

/**
 * One MXNet executor of {@link Pnet}, bound for one set of input shapes, from
 * {@link PnetModel#exec}.
 *
 * <p>Write inputs (and head gradients) into the arrays, call {@link #forward} and
 * {@link #backward}, read outputs and gradients. Parameter arrays are the model's own, shared by
 * all its executors. The model owns this executor and its arrays and frees them when closed.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class PnetExec {
  /**
   * Input {@code image}.
   */
  public final ExecArray image;

  /**
   * Gradient of input {@code image}, written by {@link #backward}.
   */
  public final ExecArray imageGrad;

  /**
   * Parameter {@code conv1_weight} [10, 3, 3, 3], shared by the model.
   */
  public final ExecArray conv1Weight;

  /**
   * Accumulated gradient of {@code conv1_weight}, shared by the model.
   */
  public final ExecArray conv1WeightGrad;

  /**
   * Parameter {@code conv1_bias} [10], shared by the model.
   */
  public final ExecArray conv1Bias;

  /**
   * Accumulated gradient of {@code conv1_bias}, shared by the model.
   */
  public final ExecArray conv1BiasGrad;

  /**
   * Parameter {@code prelu1_alpha} [10], shared by the model.
   */
  public final ExecArray prelu1Alpha;

  /**
   * Accumulated gradient of {@code prelu1_alpha}, shared by the model.
   */
  public final ExecArray prelu1AlphaGrad;

  /**
   * Parameter {@code conv2_weight} [16, 10, 3, 3], shared by the model.
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
   * Parameter {@code prelu2_alpha} [16], shared by the model.
   */
  public final ExecArray prelu2Alpha;

  /**
   * Accumulated gradient of {@code prelu2_alpha}, shared by the model.
   */
  public final ExecArray prelu2AlphaGrad;

  /**
   * Parameter {@code conv3_weight} [32, 16, 3, 3], shared by the model.
   */
  public final ExecArray conv3Weight;

  /**
   * Accumulated gradient of {@code conv3_weight}, shared by the model.
   */
  public final ExecArray conv3WeightGrad;

  /**
   * Parameter {@code conv3_bias} [32], shared by the model.
   */
  public final ExecArray conv3Bias;

  /**
   * Accumulated gradient of {@code conv3_bias}, shared by the model.
   */
  public final ExecArray conv3BiasGrad;

  /**
   * Parameter {@code prelu3_alpha} [32], shared by the model.
   */
  public final ExecArray prelu3Alpha;

  /**
   * Accumulated gradient of {@code prelu3_alpha}, shared by the model.
   */
  public final ExecArray prelu3AlphaGrad;

  /**
   * Parameter {@code scoreLogits_weight} [2, 32, 1, 1], shared by the model.
   */
  public final ExecArray scoreLogitsWeight;

  /**
   * Accumulated gradient of {@code scoreLogits_weight}, shared by the model.
   */
  public final ExecArray scoreLogitsWeightGrad;

  /**
   * Parameter {@code scoreLogits_bias} [2], shared by the model.
   */
  public final ExecArray scoreLogitsBias;

  /**
   * Accumulated gradient of {@code scoreLogits_bias}, shared by the model.
   */
  public final ExecArray scoreLogitsBiasGrad;

  /**
   * Parameter {@code box_weight} [4, 32, 1, 1], shared by the model.
   */
  public final ExecArray boxWeight;

  /**
   * Accumulated gradient of {@code box_weight}, shared by the model.
   */
  public final ExecArray boxWeightGrad;

  /**
   * Parameter {@code box_bias} [4], shared by the model.
   */
  public final ExecArray boxBias;

  /**
   * Accumulated gradient of {@code box_bias}, shared by the model.
   */
  public final ExecArray boxBiasGrad;

  /**
   * Output {@code score} of the latest {@link #forward}, read-only.
   */
  public final ExecArray score;

  /**
   * Head gradient for output {@code score}, read by {@link #backward}.
   */
  public final ExecArray scoreHeadGrad;

  /**
   * Output {@code box} of the latest {@link #forward}, read-only.
   */
  public final ExecArray box;

  /**
   * Head gradient for output {@code box}, read by {@link #backward}.
   */
  public final ExecArray boxHeadGrad;

  private final BoundExecutor executor;

  /**
   * Names the arrays that {@code executor} binds and the model's shared ones;
   * {@link PnetModel#exec} makes it.
   *
   * @param runtime the model's runtime, which owns the shared arrays
   * @param executor the executor bound for one set of input shapes
   */
  PnetExec(ModelRuntime runtime, BoundExecutor executor) {
    this.executor = executor;
    this.image = ExecArray.input("image", executor, 0);
    this.imageGrad = ExecArray.inputGrad("image gradient", executor, 0);
    this.conv1Weight = runtime.weightArray("conv1_weight");
    this.conv1WeightGrad = runtime.gradArray("conv1_weight");
    this.conv1Bias = runtime.weightArray("conv1_bias");
    this.conv1BiasGrad = runtime.gradArray("conv1_bias");
    this.prelu1Alpha = runtime.weightArray("prelu1_alpha");
    this.prelu1AlphaGrad = runtime.gradArray("prelu1_alpha");
    this.conv2Weight = runtime.weightArray("conv2_weight");
    this.conv2WeightGrad = runtime.gradArray("conv2_weight");
    this.conv2Bias = runtime.weightArray("conv2_bias");
    this.conv2BiasGrad = runtime.gradArray("conv2_bias");
    this.prelu2Alpha = runtime.weightArray("prelu2_alpha");
    this.prelu2AlphaGrad = runtime.gradArray("prelu2_alpha");
    this.conv3Weight = runtime.weightArray("conv3_weight");
    this.conv3WeightGrad = runtime.gradArray("conv3_weight");
    this.conv3Bias = runtime.weightArray("conv3_bias");
    this.conv3BiasGrad = runtime.gradArray("conv3_bias");
    this.prelu3Alpha = runtime.weightArray("prelu3_alpha");
    this.prelu3AlphaGrad = runtime.gradArray("prelu3_alpha");
    this.scoreLogitsWeight = runtime.weightArray("scoreLogits_weight");
    this.scoreLogitsWeightGrad = runtime.gradArray("scoreLogits_weight");
    this.scoreLogitsBias = runtime.weightArray("scoreLogits_bias");
    this.scoreLogitsBiasGrad = runtime.gradArray("scoreLogits_bias");
    this.boxWeight = runtime.weightArray("box_weight");
    this.boxWeightGrad = runtime.gradArray("box_weight");
    this.boxBias = runtime.weightArray("box_bias");
    this.boxBiasGrad = runtime.gradArray("box_bias");
    this.score = ExecArray.output("score", executor, 0);
    this.scoreHeadGrad = ExecArray.headGrad("score head gradient", executor, 0);
    this.box = ExecArray.output("box", executor, 1);
    this.boxHeadGrad = ExecArray.headGrad("box head gradient", executor, 1);
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
