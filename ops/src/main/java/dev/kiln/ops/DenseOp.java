package dev.kiln.ops;

import static dev.kiln.ops.Args.act;
import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.FileOps.Arg;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * A dense layer ({@code @Dense}): MXNet's {@code FullyConnected}, then the activation unless {@code
 * Act.NONE}; parameters {@code <node>_weight} {@code [units, in]} and, unless {@code noBias},
 * {@code <node>_bias} {@code [units]}. Generated code writes {@code
 * DenseOp.units(128).activation(Act.RELU)}; unset attributes keep the annotation's defaults.
 *
 * @param units output features
 * @param activation applied after the layer, or {@code Act.NONE}
 * @param noBias whether the layer has no bias
 * @param flatten whether an input of rank above 2 is flattened first
 */
public record DenseOp(int units, Act activation, boolean noBias, boolean flatten)
    implements LayerOp {
  static final OpReader<Dense> READER =
      OpReader.of(
          Dense.class,
          d -> new DenseOp(d.units(), d.activation(), d.noBias(), d.flatten()),
          "units",
          "activation",
          "noBias",
          "flatten");

  @Override
  public String annotation() {
    return "Dense";
  }

  @Override
  public String mxnetOp() {
    return activation == Act.NONE
        ? "FullyConnected"
        : "FullyConnected+" + Activations.label(activation);
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    if (units <= 0) {
      throw site.fail(Message.NON_POSITIVE, "units", site.where() + " @Dense", "units", units);
    }
  }

  /** Free dimensions pass through or follow the rule's arithmetic as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /**
   * MXNet {@code FullyConnectedShape}: with {@code flatten} the input is {@code [N, rest...]} read
   * as {@code [N, prod(rest)]} and the output is {@code [N, units]}; without, the last dimension is
   * replaced by {@code units}. Weight {@code [units, in]}, bias {@code [units]}.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    int features = flatten ? s.product(1) : s.dim(s.rank() - 1);
    if (features < 0) {
      String hint =
          s.hasFree()
              ? "a width written in free dimensions changes with the input's size, so no weight "
                  + "fits it: pool to a fixed size first (e.g. @GlobalAvgPool, then @Flatten)"
              : "only the first (batch) dimension may be BATCH";
      throw site.fail(Message.UNKNOWN_FEATURES, null, site.where(), s, site.x().node(), hint);
    }
    List<Integer> out = new ArrayList<>();
    if (flatten) {
      out.add(s.dim(0));
    } else {
      out.addAll(s.dims().subList(0, s.rank() - 1));
    }
    out.add(units);
    List<ParamInfo> params = new ArrayList<>();
    params.add(site.param(ParamRole.WEIGHT, TShape.of(units, features)));
    if (!noBias) {
      params.add(site.param(ParamRole.BIAS, TShape.of(units)));
    }
    return new Inferred(new TShape(out), params, List.of());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    TShape x = in.get(0);
    long outElems = out.perExample();
    long features = flatten ? x.product(1) : x.dim(x.rank() - 1);
    return 2 * outElems * features
        + (noBias ? 0 : outElems)
        + (activation == Act.NONE ? 0 : outElems);
  }

  @Override
  public NodeCall call(CallSite site) {
    Args.Chain spec =
        chain(DenseOp.class, "units", i(units))
            .when(activation != Act.NONE, "activation", act(activation))
            .when(noBias, "withoutBias")
            .when(!flatten, "flatten", new NodeCall.Bool(false));
    return NodeCall.Builder.of("node", spec.build(), x());
  }

  /** {@code units} outputs, no activation, with a bias, flattening its input. */
  public static DenseOp units(int units) {
    return new DenseOp(units, Act.NONE, false, true);
  }

  /** This layer followed by {@code activation}. */
  public DenseOp activation(Act activation) {
    return new DenseOp(units, activation, noBias, flatten);
  }

  /** This layer without a bias. */
  public DenseOp withoutBias() {
    return new DenseOp(units, activation, true, flatten);
  }

  /** This layer applied to the last axis only ({@code flatten = false}) or not. */
  public DenseOp flatten(boolean flatten) {
    return new DenseOp(units, activation, noBias, flatten);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    List<String> keys = new ArrayList<>(List.of("data", "weight"));
    List<Sym> args = new ArrayList<>(List.of(inputs.get(0), scope.param(ParamRole.WEIGHT)));
    if (!noBias) {
      keys.add("bias");
      args.add(scope.param(ParamRole.BIAS));
    }
    Sym fc =
        scope.op(
            "FullyConnected",
            scope.node(),
            Attrs.of("num_hidden", units, "no_bias", noBias, "flatten", flatten),
            keys,
            args);
    return scope.activate(fc, activation);
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("FullyConnected", List.of(), DenseOp::fullyConnected)
          // mkldnn_fully_connected.cc:197 reorders the weight in inference.
          .natives(Native.of("FullyConnected").reorders(1).bf16(Native.Bf16.LOW));

  static Mapped fullyConnected(FileAttrs a) {
    boolean noBias = a.bool("no_bias", false);
    Op op = new DenseOp(a.integer("num_hidden", 0), Act.NONE, noBias, a.bool("flatten", true));
    return new Mapped(op, Arg.weighted(noBias));
  }
}
