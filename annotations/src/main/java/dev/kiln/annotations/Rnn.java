package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A plain (Elman) recurrent layer: MXNet's fused {@code RNN} operator with {@code mode = rnn_tanh}
 * or {@code rnn_relu} (oneDNN's kernel on the CPU), over a batch-first sequence {@code [BATCH,
 * steps, features]} where {@code steps} is a constant or {@link Dim#STEPS}: {@code h' = act(W_x x +
 * b_x + W_h h + b_h)}.
 *
 * <pre>{@code @Rnn(units = 32, activation = Act.RELU) Sym states(Sym series);}</pre>
 *
 * <p>One parameter, {@code <node>_parameters}: a flat vector in MXNet's own layout (all weights,
 * then all biases; by layer, then direction; input-to-hidden before hidden-to-hidden). The matrices
 * start from the model's initialiser; the biases start at zero.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Rnn {
  /** Units per direction: the size of the hidden state; must be positive. */
  int units();

  /** The activation: {@link Act#TANH} (the default) or {@link Act#RELU}, nothing else. */
  Act activation() default Act.TANH;

  /** Recurrent layers stacked on one another; 1 by default. */
  int layers() default 1;

  /**
   * Runs a second layer over the sequence reversed and concatenates both outputs, so the output has
   * {@code 2 · units} features.
   */
  boolean bidirectional() default false;

  /**
   * Dropout between stacked layers in training (not after the last layer), in {@code [0, 1)}; 0 by
   * default.
   */
  double dropout() default 0;

  /**
   * Whether the output is every step, {@code [BATCH, steps, units × directions]} (the default), or
   * only the last one, {@code [BATCH, units × directions]}: the final hidden state of the last
   * layer in each direction, which for the forward direction is its output at the last step and for
   * the reverse direction its output at the first step (the last one it reads).
   */
  boolean returnSequences() default true;

  /**
   * Carries the layer's final state into the model's next {@code forward} until {@code
   * resetState()}, instead of starting every call from zeros; gradients do not cross calls
   * (truncated back-propagation through time). Unidirectional layers only.
   */
  boolean stateful() default false;
}
