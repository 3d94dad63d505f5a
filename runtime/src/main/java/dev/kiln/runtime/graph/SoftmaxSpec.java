package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * A softmax along {@code axis} ({@code @Softmax}): MXNet's {@code softmax}. A classifier's last
 * softmax ({@link #classifierHead()}) is, when the graph is built for classifier training, MXNet's
 * {@code SoftmaxOutput} instead, whose forward is the same softmax and whose backward is the
 * gradient of the mean cross-entropy against the label variable {@code <node>_label} (class
 * indices, one per example); it needs no head gradient. Generated code writes {@code
 * SoftmaxSpec.axis(-1)}.
 *
 * @param axis the axis normalised over
 * @param head whether the node is a classifier's head
 */
public record SoftmaxSpec(int axis, boolean head) implements LayerOp {
  /** A softmax along {@code axis}. */
  public static SoftmaxSpec axis(int axis) {
    return new SoftmaxSpec(axis, false);
  }

  /** This softmax as the head that classifier training turns into {@code SoftmaxOutput}. */
  public SoftmaxSpec classifierHead() {
    return new SoftmaxSpec(axis, true);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym x = inputs.get(0);
    if (!head || !scope.training()) {
      scope.checkAxis("softmax", List.of(x), axis, false);
      return scope.op("softmax", Attrs.of("axis", axis), x);
    }
    scope.checkAxis("softmax", List.of(x), axis, true);
    return scope.op(
        "SoftmaxOutput",
        scope.node(),
        Attrs.of("normalization", "batch", "preserve_shape", true),
        List.of("data", "label"),
        List.of(x, scope.label()));
  }
}
