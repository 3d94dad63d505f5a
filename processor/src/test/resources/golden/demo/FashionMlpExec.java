package demo;

import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.Tensor;
import javax.annotation.processing.Generated;

/**
 * One MXNet executor of {@link FashionMlp}, bound for one set of input shapes, from {@link FashionMlpModel#exec}.
 *
 * <p>Write inputs (and head gradients) into the arrays, call {@link #forward} and {@link #backward},
 * read outputs and gradients. Parameter arrays are the model's own, shared by all its
 * executors. The model owns this executor and frees it when closed.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class FashionMlpExec {
  /**
   * Input {@code pixels}.
   */
  public final Tensor pixels;

  /**
   * Gradient of input {@code pixels}, written by {@link #backward}.
   */
  public final Tensor pixelsGrad;

  /**
   * Parameter {@code hidden_weight} [128, 784], shared by the model.
   */
  public final Tensor hiddenWeight;

  /**
   * Accumulated gradient of {@code hidden_weight}, shared by the model.
   */
  public final Tensor hiddenWeightGrad;

  /**
   * Parameter {@code hidden_bias} [128], shared by the model.
   */
  public final Tensor hiddenBias;

  /**
   * Accumulated gradient of {@code hidden_bias}, shared by the model.
   */
  public final Tensor hiddenBiasGrad;

  /**
   * Parameter {@code logits_weight} [10, 128], shared by the model.
   */
  public final Tensor logitsWeight;

  /**
   * Accumulated gradient of {@code logits_weight}, shared by the model.
   */
  public final Tensor logitsWeightGrad;

  /**
   * Parameter {@code logits_bias} [10], shared by the model.
   */
  public final Tensor logitsBias;

  /**
   * Accumulated gradient of {@code logits_bias}, shared by the model.
   */
  public final Tensor logitsBiasGrad;

  /**
   * Output {@code probs}, written by {@link #forward}.
   */
  public final Tensor probs;

  /**
   * Head gradient for output {@code probs}, read by {@link #backward}.
   */
  public final Tensor probsHeadGrad;

  private final BoundExecutor executor;

  FashionMlpExec(ModelRuntime runtime, BoundExecutor executor) {
    this.executor = executor;
    this.pixels = executor.input(0);
    this.pixelsGrad = executor.inputGrad(0);
    this.hiddenWeight = runtime.slot("hidden_weight").weight();
    this.hiddenWeightGrad = runtime.slot("hidden_weight").grad();
    this.hiddenBias = runtime.slot("hidden_bias").weight();
    this.hiddenBiasGrad = runtime.slot("hidden_bias").grad();
    this.logitsWeight = runtime.slot("logits_weight").weight();
    this.logitsWeightGrad = runtime.slot("logits_weight").grad();
    this.logitsBias = runtime.slot("logits_bias").weight();
    this.logitsBiasGrad = runtime.slot("logits_bias").grad();
    this.probs = executor.output(0);
    this.probsHeadGrad = executor.headGrad(0);
  }

  /**
   * Runs the forward pass over the input arrays, in training mode if {@code train}.
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
