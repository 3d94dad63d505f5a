package dev.kiln.ops;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * MXNet's {@code SoftmaxActivation} in an imported file (MTCNN's heads): a softmax over every value
 * of an example ({@code mode = instance}, MXNet's default: the input seen as {@code [N, rest]}), or
 * over the channels at each position ({@code mode = channel}: axis 1 of a rank-3 or higher input),
 * emitted as that operator. Generated code writes {@code SoftmaxActivationOp.overChannels()} or
 * {@code SoftmaxActivationOp.overInstance()}. No annotation makes one: the importer's table ({@link
 * FileOps}) is its registry.
 *
 * @param channel whether it normalises over the channels (else over each example)
 */
public record SoftmaxActivationOp(boolean channel) implements LayerOp {
  @Override
  public String annotation() {
    return "SoftmaxActivation";
  }

  @Override
  public String mxnetOp() {
    return "SoftmaxActivation";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // The mode is checked when the file is read; the rank with the input.
  }

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /**
   * MXNet {@code SoftmaxActivationProp::InferShape}: the input's shape; channel mode needs a rank
   * of at least 3 ({@code [N, C, ...]}).
   */
  @Override
  public Inferred infer(ShapeSite site) {
    if (channel && site.shape().rank() < 3) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          "SoftmaxActivation(mode=channel)",
          "3 or higher",
          "[N, C, ...]",
          site.x().describe(),
          "");
    }
    return Inferred.of(site.shape());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 3 * out.perExample(); // exp, sum, divide
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node",
        Args.chain(SoftmaxActivationOp.class, channel ? "overChannels" : "overInstance").build(),
        Args.x());
  }

  /** A softmax over the channels at each position. */
  public static SoftmaxActivationOp overChannels() {
    return new SoftmaxActivationOp(true);
  }

  /** A softmax over every value of an example. */
  public static SoftmaxActivationOp overInstance() {
    return new SoftmaxActivationOp(false);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(
        "SoftmaxActivation", Attrs.of("mode", channel ? "channel" : "instance"), inputs.get(0));
  }

  /** How the operator is read from a symbol file (it has no annotation). */
  static final Unit UNIT =
      Unit.of()
          .file(
              "SoftmaxActivation",
              List.of(),
              a ->
                  Mapped.unary(
                      new SoftmaxActivationOp(
                          a.choice("mode", "instance", "instance", "channel").equals("channel"))));
}
