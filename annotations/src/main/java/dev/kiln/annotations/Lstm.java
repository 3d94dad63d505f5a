package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A long short-term memory layer: MXNet's fused {@code RNN} operator with {@code mode = lstm}
 * (oneDNN's kernel on the CPU), over a batch-first sequence {@code [BATCH, steps, features]} where
 * {@code steps} is a constant or {@link Dim#STEPS}.
 *
 * <pre>{@code @Lstm(units = 128, returnSequences = false) Sym encoded(Sym rows);}</pre>
 *
 * <p>At each step, with gates input {@code i}, forget {@code f}, cell {@code g} and output {@code
 * o}: {@code i, f, o = σ(W_x x + b_x + W_h h + b_h)}, {@code g = tanh(...)}, {@code c' = f ∘ c + i
 * ∘ g}, {@code h' = o ∘ tanh(c')}.
 *
 * <p>One parameter, {@code <node>_parameters}: a flat vector in MXNet's own layout (all weights,
 * then all biases; by layer, then direction; input-to-hidden before hidden-to-hidden; gates in the
 * order i, f, g, o), so the checkpoint key is {@code arg:<node>_parameters} and MXNet or DJL can
 * load it. Each gate's matrices start from the model's initialiser with their own fans; the biases
 * start at zero except the forget gate's input bias, at 1.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Lstm {
  /** Units per direction: the size of the hidden state; must be positive. */
  int units();

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
