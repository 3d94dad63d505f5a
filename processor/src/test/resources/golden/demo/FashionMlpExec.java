package demo;

import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.ExecArray;
import javax.annotation.processing.Generated;

/**
 * One MXNet executor of {@link FashionMlp}, bound for one set of input shapes, from
 * {@link FashionMlpModel#exec}.
 *
 * <p>Write inputs (and head gradients) into the arrays, call {@link #forward} and
 * {@link #backward}, read outputs and gradients. Parameter arrays are the model's own, shared by
 * all its executors. The model owns this executor and its arrays and frees them when closed.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class FashionMlpExec {
  /**
   * Input {@code pixels}.
   */
  public final ExecArray pixels;

  /**
   * Gradient of input {@code pixels}, written by {@link #backward}.
   */
  public final ExecArray pixelsGrad;

  /**
   * Parameter {@code hidden_weight} [128, 784], shared by the model.
   */
  public final ExecArray hiddenWeight;

  /**
   * Accumulated gradient of {@code hidden_weight}, shared by the model.
   */
  public final ExecArray hiddenWeightGrad;

  /**
   * Parameter {@code hidden_bias} [128], shared by the model.
   */
  public final ExecArray hiddenBias;

  /**
   * Accumulated gradient of {@code hidden_bias}, shared by the model.
   */
  public final ExecArray hiddenBiasGrad;

  /**
   * Parameter {@code logits_weight} [10, 128], shared by the model.
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
   * {@link FashionMlpModel#exec} makes it.
   *
   * @param runtime the model's runtime, which owns the shared arrays
   * @param executor the executor bound for one set of input shapes
   */
  FashionMlpExec(ModelRuntime runtime, BoundExecutor executor) {
    this.executor = executor;
    this.pixels = ExecArray.input("pixels", executor, 0);
    this.pixelsGrad = ExecArray.inputGrad("pixels gradient", executor, 0);
    this.hiddenWeight = runtime.weightArray("hidden_weight");
    this.hiddenWeightGrad = runtime.gradArray("hidden_weight");
    this.hiddenBias = runtime.weightArray("hidden_bias");
    this.hiddenBiasGrad = runtime.gradArray("hidden_bias");
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
