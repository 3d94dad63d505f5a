package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.act;
import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dense;
import dev.kiln.names.ParamRole;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ParamInfo;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code @Dense}: MXNet's {@code FullyConnected}, then the activation unless {@code Act.NONE}.
 *
 * @param units output features
 * @param activation applied after the layer, or {@code Act.NONE}
 * @param noBias whether the layer has no bias
 * @param flatten whether an input of rank above 2 is flattened first
 */
record DenseOp(int units, Act activation, boolean noBias, boolean flatten) implements Op {
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
    return activation == Act.NONE ? "FullyConnected" : "FullyConnected+" + Acts.op(activation);
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
      throw site.fail(Message.UNKNOWN_FEATURES, null, site.where(), s, site.x().node().name());
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
        chain("DenseSpec", "units", i(units))
            .when(activation != Act.NONE, "activation", act(activation))
            .when(noBias, "withoutBias")
            .when(!flatten, "flatten", new NodeCall.Bool(false));
    return NodeCall.Builder.of("node", spec.build(), x());
  }
}
