package custom;

import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.ExecArray;
import javax.annotation.processing.Generated;

/**
 * One MXNet executor of {@link AffineNet}, bound for one set of input shapes, from
 * {@link AffineNetModel#exec}.
 *
 * <p>Write inputs (and head gradients) into the arrays, call {@link #forward} and
 * {@link #backward}, read outputs and gradients. Parameter arrays are the model's own, shared by
 * all its executors. The model owns this executor and its arrays and frees them when closed.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class AffineNetExec {
  /**
   * Input {@code pixels}.
   */
  public final ExecArray pixels;

  /**
   * Gradient of input {@code pixels}, written by {@link #backward}.
   */
  public final ExecArray pixelsGrad;

  /**
   * Parameter {@code scores_weight} [784, 10], shared by the model.
   */
  public final ExecArray scoresWeight;

  /**
   * Accumulated gradient of {@code scores_weight}, shared by the model.
   */
  public final ExecArray scoresWeightGrad;

  /**
   * Parameter {@code scores_bias} [10], shared by the model.
   */
  public final ExecArray scoresBias;

  /**
   * Accumulated gradient of {@code scores_bias}, shared by the model.
   */
  public final ExecArray scoresBiasGrad;

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
   * {@link AffineNetModel#exec} makes it.
   *
   * @param runtime the model's runtime, which owns the shared arrays
   * @param executor the executor bound for one set of input shapes
   */
  AffineNetExec(ModelRuntime runtime, BoundExecutor executor) {
    this.executor = executor;
    this.pixels = ExecArray.input("pixels", executor, 0);
    this.pixelsGrad = ExecArray.inputGrad("pixels gradient", executor, 0);
    this.scoresWeight = runtime.weightArray("scores_weight");
    this.scoresWeightGrad = runtime.gradArray("scores_weight");
    this.scoresBias = runtime.weightArray("scores_bias");
    this.scoresBiasGrad = runtime.gradArray("scores_bias");
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
