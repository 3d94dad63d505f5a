package dev.kiln.annotations;

/**
 * How a custom layer's {@link Param} starts, before training: {@code @Param(shape = {"channels"},
 * init = ParamInit.ONES) Sym scale} is a learnable scale that starts as the identity.
 */
public enum ParamInit {
  /** Drawn by the model's initialiser ({@code create(Init.xavier(), seed)}), as a weight is. */
  MODEL,
  /** Every element 0, as a bias starts. */
  ZEROS,
  /** Every element 1, as a scale starts. */
  ONES,
  /** Every element {@link Param#value()}. */
  CONSTANT
}
