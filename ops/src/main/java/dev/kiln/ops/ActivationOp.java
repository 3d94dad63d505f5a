package dev.kiln.ops;

import static dev.kiln.ops.Args.act;
import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Activation;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.FileOps.Arg;
import dev.kiln.ops.FileOps.Mapped;
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
 * An element-wise activation ({@code @Activation}): MXNet's {@code Activation}, {@code LeakyReLU}
 * or a composition of them ({@link Activations}), its last operator named after the node. Generated
 * code writes {@code ActivationOp.of(Act.RELU)}.
 *
 * @param activation the function
 * @param slope the slope below zero of a leaky ReLU or the scale of an ELU, where an imported file
 *     sets one other than Kiln's (MXNet's {@code LeakyReLU} {@code slope}); NaN for the function's
 *     own
 */
public record ActivationOp(Act activation, double slope) implements LayerOp {
  static final OpReader<Activation> READER =
      OpReader.of(Activation.class, a -> new ActivationOp(a.value(), Double.NaN), "value");

  @Override
  public String annotation() {
    return "Activation";
  }

  @Override
  public String mxnetOp() {
    return Double.isNaN(slope)
        ? Activations.label(activation)
        : "LeakyReLU(" + activation.mxnetName() + ")";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    if (activation == Act.NONE) {
      throw site.fail(Message.BAD_ACTIVATION, "value", site.where());
    }
  }

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /** MXNet {@code Activation}: element-wise, the input's shape. */
  @Override
  public Inferred infer(ShapeSite site) {
    return Inferred.of(site.shape());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node",
        chain(ActivationOp.class, "of", act(activation))
            .when(!Double.isNaN(slope), "slope", Args.d(slope))
            .build(),
        x());
  }

  /** The activation {@code activation}. */
  public static ActivationOp of(Act activation) {
    return new ActivationOp(activation, Double.NaN);
  }

  /**
   * This leaky ReLU with slope {@code slope} below zero, or this ELU scaled by {@code slope}.
   *
   * @throws IllegalArgumentException for another function, which has no slope
   */
  public ActivationOp slope(double slope) {
    if (activation != Act.LEAKY_RELU && activation != Act.ELU) {
      throw new IllegalArgumentException(activation + " has no slope");
    }
    return new ActivationOp(activation, slope);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return Activations.apply(scope, scope.node(), inputs.get(0), activation, slope);
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("Activation", List.of(), ActivationOp::activation)
          .file("LeakyReLU", List.of(), ActivationOp::leakyRelu)
          .natives(
              Native.of("Activation").bf16(Native.Bf16.FOLLOW).keepsChannels(attrs -> true),
              Native.of("LeakyReLU")
                  .keepsChannels(
                      attrs ->
                          attrs.apply("act_type") == null
                              || List.of("leaky", "elu", "selu", "gelu")
                                  .contains(attrs.apply("act_type"))));

  static Mapped activation(FileAttrs a) {
    String type = a.choice("act_type", null, "relu", "sigmoid", "tanh", "softrelu", "softsign");
    if (type == null) {
      throw a.unsupported("act_type", "an Activation needs its act_type");
    }
    Act act =
        switch (type) {
          case "relu" -> Act.RELU;
          case "sigmoid" -> Act.SIGMOID;
          case "tanh" -> Act.TANH;
          case "softrelu" -> Act.SOFTRELU;
          default -> Act.SOFTSIGN;
        };
    return Mapped.unary(new ActivationOp(act, Double.NaN));
  }

  static Mapped leakyRelu(FileAttrs a) {
    String type = a.choice("act_type", "leaky", "leaky", "elu", "gelu", "selu", "prelu");
    a.ignore("lower_bound", "upper_bound");
    if (type.equals("prelu")) {
      a.ignore("slope");
      return new Mapped(new PReluOp(), List.of(Arg.DATA, Arg.param(ParamRole.ALPHA)));
    }
    double slope = a.decimal("slope", 0.25);
    Op op =
        switch (type) {
          case "leaky" -> new ActivationOp(Act.LEAKY_RELU, slope);
          case "elu" -> new ActivationOp(Act.ELU, slope);
          case "gelu" -> new ActivationOp(Act.GELU, Double.NaN);
          default -> new ActivationOp(Act.SELU, Double.NaN);
        };
    return Mapped.unary(op);
  }
}
