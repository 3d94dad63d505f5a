package heads;

import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.ExecArray;
import javax.annotation.processing.Generated;

/**
 * One MXNet executor of {@link TwoHeads}, bound for one set of input shapes, from
 * {@link TwoHeadsModel#exec}.
 *
 * <p>Write inputs (and head gradients) into the arrays, call {@link #forward} and
 * {@link #backward}, read outputs and gradients. Parameter arrays are the model's own, shared by
 * all its executors. The model owns this executor and its arrays and frees them when closed.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class TwoHeadsExec {
  /**
   * Input {@code features}.
   */
  public final ExecArray features;

  /**
   * Gradient of input {@code features}, written by {@link #backward}.
   */
  public final ExecArray featuresGrad;

  /**
   * Input {@code context}.
   */
  public final ExecArray context;

  /**
   * Gradient of input {@code context}, written by {@link #backward}.
   */
  public final ExecArray contextGrad;

  /**
   * Parameter {@code base_weight} [8, 12], shared by the model.
   */
  public final ExecArray baseWeight;

  /**
   * Accumulated gradient of {@code base_weight}, shared by the model.
   */
  public final ExecArray baseWeightGrad;

  /**
   * Parameter {@code base_bias} [8], shared by the model.
   */
  public final ExecArray baseBias;

  /**
   * Accumulated gradient of {@code base_bias}, shared by the model.
   */
  public final ExecArray baseBiasGrad;

  /**
   * Parameter {@code normed_gamma} [8], shared by the model.
   */
  public final ExecArray normedGamma;

  /**
   * Accumulated gradient of {@code normed_gamma}, shared by the model.
   */
  public final ExecArray normedGammaGrad;

  /**
   * Parameter {@code normed_beta} [8], shared by the model.
   */
  public final ExecArray normedBeta;

  /**
   * Accumulated gradient of {@code normed_beta}, shared by the model.
   */
  public final ExecArray normedBetaGrad;

  /**
   * Parameter {@code left_weight} [2, 8], shared by the model.
   */
  public final ExecArray leftWeight;

  /**
   * Accumulated gradient of {@code left_weight}, shared by the model.
   */
  public final ExecArray leftWeightGrad;

  /**
   * Parameter {@code left_bias} [2], shared by the model.
   */
  public final ExecArray leftBias;

  /**
   * Accumulated gradient of {@code left_bias}, shared by the model.
   */
  public final ExecArray leftBiasGrad;

  /**
   * Parameter {@code right_weight} [3, 8], shared by the model.
   */
  public final ExecArray rightWeight;

  /**
   * Accumulated gradient of {@code right_weight}, shared by the model.
   */
  public final ExecArray rightWeightGrad;

  /**
   * Output {@code left} of the latest {@link #forward}, read-only.
   */
  public final ExecArray left;

  /**
   * Head gradient for output {@code left}, read by {@link #backward}.
   */
  public final ExecArray leftHeadGrad;

  /**
   * Output {@code right} of the latest {@link #forward}, read-only.
   */
  public final ExecArray right;

  /**
   * Head gradient for output {@code right}, read by {@link #backward}.
   */
  public final ExecArray rightHeadGrad;

  private final BoundExecutor executor;

  /**
   * Names the arrays that {@code executor} binds and the model's shared ones;
   * {@link TwoHeadsModel#exec} makes it.
   *
   * @param runtime the model's runtime, which owns the shared arrays
   * @param executor the executor bound for one set of input shapes
   */
  TwoHeadsExec(ModelRuntime runtime, BoundExecutor executor) {
    this.executor = executor;
    this.features = ExecArray.input("features", executor, 0);
    this.featuresGrad = ExecArray.inputGrad("features gradient", executor, 0);
    this.context = ExecArray.input("context", executor, 1);
    this.contextGrad = ExecArray.inputGrad("context gradient", executor, 1);
    this.baseWeight = runtime.weightArray("base_weight");
    this.baseWeightGrad = runtime.gradArray("base_weight");
    this.baseBias = runtime.weightArray("base_bias");
    this.baseBiasGrad = runtime.gradArray("base_bias");
    this.normedGamma = runtime.weightArray("normed_gamma");
    this.normedGammaGrad = runtime.gradArray("normed_gamma");
    this.normedBeta = runtime.weightArray("normed_beta");
    this.normedBetaGrad = runtime.gradArray("normed_beta");
    this.leftWeight = runtime.weightArray("left_weight");
    this.leftWeightGrad = runtime.gradArray("left_weight");
    this.leftBias = runtime.weightArray("left_bias");
    this.leftBiasGrad = runtime.gradArray("left_bias");
    this.rightWeight = runtime.weightArray("right_weight");
    this.rightWeightGrad = runtime.gradArray("right_weight");
    this.left = ExecArray.output("left", executor, 0);
    this.leftHeadGrad = ExecArray.headGrad("left head gradient", executor, 0);
    this.right = ExecArray.output("right", executor, 1);
    this.rightHeadGrad = ExecArray.headGrad("right head gradient", executor, 1);
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
