package dev.kiln.runtime.infer;

/**
 * How a {@link Predictor} runs its model.
 *
 * @param fused whether the symbol goes through MXNet's oneDNN graph pass (see {@link Predictor}):
 *     on by default; off runs the graph operator by operator, as a model's own {@code forward} does
 */
public record InferenceOptions(boolean fused) {
  /** The default: fused. */
  public static final InferenceOptions DEFAULT = new InferenceOptions(true);

  /** Operator by operator, as a model's own inference-mode {@code forward}. */
  public static InferenceOptions unfused() {
    return new InferenceOptions(false);
  }
}
