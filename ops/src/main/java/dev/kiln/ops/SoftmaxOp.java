package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.FileOps.Arg;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;
import java.util.OptionalInt;

/**
 * A softmax along {@code axis} ({@code @Softmax}): MXNet's {@code softmax}. A classifier's last
 * softmax ({@link #classifierHead()}) is, when the graph is built for classifier training, MXNet's
 * {@code SoftmaxOutput} instead, whose forward is the same softmax and whose backward is the
 * gradient of the mean cross-entropy against the label variable {@code <node>_label} (class
 * indices, one per example); it needs no head gradient. Generated code writes {@code
 * SoftmaxOp.axis(-1)}.
 *
 * <p>At compile time: {@code @Softmax}: MXNet's {@code softmax}; as a classifier's head, {@code
 * SoftmaxOutput} in classifier training.
 *
 * @param axis the axis normalised over
 */
public record SoftmaxOp(int axis, boolean head) implements LayerOp {
  static final OpReader<Softmax> READER =
      OpReader.of(Softmax.class, s -> new SoftmaxOp(s.axis(), false), "axis");

  @Override
  public String annotation() {
    return "Softmax";
  }

  @Override
  public String mxnetOp() {
    return "softmax";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public OptionalInt softmaxAxis() {
    return OptionalInt.of(axis);
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // The axis is checked against the input's rank.
  }

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /** MXNet {@code softmax}: the input's shape, along an axis the input has. */
  @Override
  public Inferred infer(ShapeSite site) {
    site.axis(axis, site.x());
    return Inferred.of(site.shape());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 3 * out.perExample(); // exponent, sum and division per element
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node",
        chain(SoftmaxOp.class, "axis", i(axis))
            .when(site.classifierHead(), "classifierHead")
            .build(),
        x());
  }

  /** A softmax along {@code axis}. */
  public static SoftmaxOp axis(int axis) {
    return new SoftmaxOp(axis, false);
  }

  /** This softmax as the head that classifier training turns into {@code SoftmaxOutput}. */
  public SoftmaxOp classifierHead() {
    return new SoftmaxOp(axis, true);
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

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("SoftmaxOutput", List.of(), SoftmaxOp::softmaxOutput)
          .file("softmax", List.of(), SoftmaxOp::softmax);

  static Mapped softmaxOutput(FileAttrs a) {
    a.ignore("grad_scale", "ignore_label", "normalization", "out_grad");
    a.require("multi_output", "False", "Kiln imports a softmax over the last axis of [N, classes]");
    a.require("preserve_shape", "False", "Kiln imports a softmax over [N, classes]");
    a.require("use_ignore", "False", "Kiln's classifier training counts every label");
    a.require("smooth_alpha", "0", "Kiln's classifier training does not smooth labels");
    return new Mapped(SoftmaxOp.axis(-1), List.of(Arg.DATA, Arg.LABEL));
  }

  static Mapped softmax(FileAttrs a) {
    a.ignore("dtype");
    a.require("temperature", "None", "Kiln's softmax has no temperature");
    a.require("use_length", "False", "Kiln's softmax takes no lengths");
    return Mapped.unary(SoftmaxOp.axis(a.integer("axis", -1)));
  }
}
