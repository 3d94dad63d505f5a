package dev.kiln.ops.rule;

import java.util.List;

/**
 * What an op's shape rule inferred for one node: its output shape, the parameters it creates and
 * its auxiliary states.
 *
 * @param shape the output shape
 * @param params the learnable parameters, in the order the op makes them
 * @param aux the auxiliary states
 */
public record Inferred(TShape shape, List<ParamInfo> params, List<ParamInfo> aux) {
  /** Copies the lists. */
  public Inferred {
    params = List.copyOf(params);
    aux = List.copyOf(aux);
  }

  /** A result without parameters. */
  public static Inferred of(TShape shape) {
    return new Inferred(shape, List.of(), List.of());
  }
}
