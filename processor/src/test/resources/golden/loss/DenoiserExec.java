package loss;

import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.ExecArray;
import javax.annotation.processing.Generated;

/**
 * One MXNet executor of {@link Denoiser}, bound for one set of input shapes, from
 * {@link DenoiserModel#exec}.
 *
 * <p>Write inputs (and head gradients) into the arrays, call {@link #forward} and
 * {@link #backward}, read outputs and gradients. Parameter arrays are the model's own, shared by
 * all its executors. The model owns this executor and its arrays and frees them when closed.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class DenoiserExec {
  /**
   * Input {@code noisy}.
   */
  public final ExecArray noisy;

  /**
   * Gradient of input {@code noisy}, written by {@link #backward}.
   */
  public final ExecArray noisyGrad;

  /**
   * Parameter {@code down_weight} [4, 1, 2, 2], shared by the model.
   */
  public final ExecArray downWeight;

  /**
   * Accumulated gradient of {@code down_weight}, shared by the model.
   */
  public final ExecArray downWeightGrad;

  /**
   * Parameter {@code down_bias} [4], shared by the model.
   */
  public final ExecArray downBias;

  /**
   * Accumulated gradient of {@code down_bias}, shared by the model.
   */
  public final ExecArray downBiasGrad;

  /**
   * Parameter {@code up_weight} [4, 1, 2, 2], shared by the model.
   */
  public final ExecArray upWeight;

  /**
   * Accumulated gradient of {@code up_weight}, shared by the model.
   */
  public final ExecArray upWeightGrad;

  /**
   * Parameter {@code up_bias} [1], shared by the model.
   */
  public final ExecArray upBias;

  /**
   * Accumulated gradient of {@code up_bias}, shared by the model.
   */
  public final ExecArray upBiasGrad;

  /**
   * Output {@code clean} of the latest {@link #forward}, read-only.
   */
  public final ExecArray clean;

  /**
   * Head gradient for output {@code clean}, read by {@link #backward}.
   */
  public final ExecArray cleanHeadGrad;

  private final BoundExecutor executor;

  /**
   * Names the arrays that {@code executor} binds and the model's shared ones;
   * {@link DenoiserModel#exec} makes it.
   *
   * @param runtime the model's runtime, which owns the shared arrays
   * @param executor the executor bound for one set of input shapes
   */
  DenoiserExec(ModelRuntime runtime, BoundExecutor executor) {
    this.executor = executor;
    this.noisy = ExecArray.input("noisy", executor, 0);
    this.noisyGrad = ExecArray.inputGrad("noisy gradient", executor, 0);
    this.downWeight = runtime.weightArray("down_weight");
    this.downWeightGrad = runtime.gradArray("down_weight");
    this.downBias = runtime.weightArray("down_bias");
    this.downBiasGrad = runtime.gradArray("down_bias");
    this.upWeight = runtime.weightArray("up_weight");
    this.upWeightGrad = runtime.gradArray("up_weight");
    this.upBias = runtime.weightArray("up_bias");
    this.upBiasGrad = runtime.gradArray("up_bias");
    this.clean = ExecArray.output("clean", executor, 0);
    this.cleanHeadGrad = ExecArray.headGrad("clean head gradient", executor, 0);
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
