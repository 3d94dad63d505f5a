package cells;

import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.exec.ExecArray;
import javax.annotation.processing.Generated;

/**
 * One MXNet executor of {@link AnyStepsNet}, bound for one set of input shapes, from
 * {@link AnyStepsNetModel#exec}.
 *
 * <p>Write inputs (and head gradients) into the arrays, call {@link #forward} and
 * {@link #backward}, read outputs and gradients. Parameter arrays are the model's own, shared by
 * all its executors. The model owns this executor and its arrays and frees them when closed.
 */
@Generated("dev.kiln.processor.KilnProcessor")
public final class AnyStepsNetExec {
  /**
   * Input {@code x}.
   */
  public final ExecArray x;

  /**
   * Gradient of input {@code x}, written by {@link #backward}.
   */
  public final ExecArray xGrad;

  /**
   * Parameter {@code states_wxr} [3, 4], shared by the model.
   */
  public final ExecArray statesWxr;

  /**
   * Accumulated gradient of {@code states_wxr}, shared by the model.
   */
  public final ExecArray statesWxrGrad;

  /**
   * Parameter {@code states_wxz} [3, 4], shared by the model.
   */
  public final ExecArray statesWxz;

  /**
   * Accumulated gradient of {@code states_wxz}, shared by the model.
   */
  public final ExecArray statesWxzGrad;

  /**
   * Parameter {@code states_wxn} [3, 4], shared by the model.
   */
  public final ExecArray statesWxn;

  /**
   * Accumulated gradient of {@code states_wxn}, shared by the model.
   */
  public final ExecArray statesWxnGrad;

  /**
   * Parameter {@code states_whr} [4, 4], shared by the model.
   */
  public final ExecArray statesWhr;

  /**
   * Accumulated gradient of {@code states_whr}, shared by the model.
   */
  public final ExecArray statesWhrGrad;

  /**
   * Parameter {@code states_whz} [4, 4], shared by the model.
   */
  public final ExecArray statesWhz;

  /**
   * Accumulated gradient of {@code states_whz}, shared by the model.
   */
  public final ExecArray statesWhzGrad;

  /**
   * Parameter {@code states_whn} [4, 4], shared by the model.
   */
  public final ExecArray statesWhn;

  /**
   * Accumulated gradient of {@code states_whn}, shared by the model.
   */
  public final ExecArray statesWhnGrad;

  /**
   * Parameter {@code states_br} [4], shared by the model.
   */
  public final ExecArray statesBr;

  /**
   * Accumulated gradient of {@code states_br}, shared by the model.
   */
  public final ExecArray statesBrGrad;

  /**
   * Parameter {@code states_bz} [4], shared by the model.
   */
  public final ExecArray statesBz;

  /**
   * Accumulated gradient of {@code states_bz}, shared by the model.
   */
  public final ExecArray statesBzGrad;

  /**
   * Parameter {@code states_bxn} [4], shared by the model.
   */
  public final ExecArray statesBxn;

  /**
   * Accumulated gradient of {@code states_bxn}, shared by the model.
   */
  public final ExecArray statesBxnGrad;

  /**
   * Parameter {@code states_bhn} [4], shared by the model.
   */
  public final ExecArray statesBhn;

  /**
   * Accumulated gradient of {@code states_bhn}, shared by the model.
   */
  public final ExecArray statesBhnGrad;

  /**
   * Parameter {@code last_parameters} [165], shared by the model.
   */
  public final ExecArray lastParameters;

  /**
   * Accumulated gradient of {@code last_parameters}, shared by the model.
   */
  public final ExecArray lastParametersGrad;

  /**
   * Parameter {@code logits_weight} [3, 5], shared by the model.
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
   * {@link AnyStepsNetModel#exec} makes it.
   *
   * @param runtime the model's runtime, which owns the shared arrays
   * @param executor the executor bound for one set of input shapes
   */
  AnyStepsNetExec(ModelRuntime runtime, BoundExecutor executor) {
    this.executor = executor;
    this.x = ExecArray.input("x", executor, 0);
    this.xGrad = ExecArray.inputGrad("x gradient", executor, 0);
    this.statesWxr = runtime.weightArray("states_wxr");
    this.statesWxrGrad = runtime.gradArray("states_wxr");
    this.statesWxz = runtime.weightArray("states_wxz");
    this.statesWxzGrad = runtime.gradArray("states_wxz");
    this.statesWxn = runtime.weightArray("states_wxn");
    this.statesWxnGrad = runtime.gradArray("states_wxn");
    this.statesWhr = runtime.weightArray("states_whr");
    this.statesWhrGrad = runtime.gradArray("states_whr");
    this.statesWhz = runtime.weightArray("states_whz");
    this.statesWhzGrad = runtime.gradArray("states_whz");
    this.statesWhn = runtime.weightArray("states_whn");
    this.statesWhnGrad = runtime.gradArray("states_whn");
    this.statesBr = runtime.weightArray("states_br");
    this.statesBrGrad = runtime.gradArray("states_br");
    this.statesBz = runtime.weightArray("states_bz");
    this.statesBzGrad = runtime.gradArray("states_bz");
    this.statesBxn = runtime.weightArray("states_bxn");
    this.statesBxnGrad = runtime.gradArray("states_bxn");
    this.statesBhn = runtime.weightArray("states_bhn");
    this.statesBhnGrad = runtime.gradArray("states_bhn");
    this.lastParameters = runtime.weightArray("last_parameters");
    this.lastParametersGrad = runtime.gradArray("last_parameters");
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
