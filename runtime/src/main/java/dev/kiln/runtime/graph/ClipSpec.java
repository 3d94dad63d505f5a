package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * Every value limited to {@code [min, max]} ({@code @Clip}): MXNet's {@code clip}, which holds the
 * bounds as float32. Generated code writes {@code ClipSpec.between(-1.0, 1.0)}.
 *
 * @param min the least value kept
 * @param max the greatest value kept
 */
public record ClipSpec(double min, double max) implements LayerOp {
  /** Values limited to {@code [min, max]}. */
  public static ClipSpec between(double min, double max) {
    return new ClipSpec(min, max);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op("clip", Attrs.of("a_min", min, "a_max", max), inputs.get(0));
  }
}
