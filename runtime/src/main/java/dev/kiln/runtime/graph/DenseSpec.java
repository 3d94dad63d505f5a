package dev.kiln.runtime.graph;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import java.util.ArrayList;
import java.util.List;

/**
 * A dense layer ({@code @Dense}): MXNet's {@code FullyConnected}, then the activation unless {@code
 * Act.NONE}; parameters {@code <node>_weight} {@code [units, in]} and, unless {@code noBias},
 * {@code <node>_bias} {@code [units]}. Generated code writes {@code
 * DenseSpec.units(128).activation(Act.RELU)}; unset attributes keep the annotation's defaults.
 *
 * @param units output features ({@code num_hidden})
 * @param activation applied after the layer, or {@link Act#NONE}
 * @param noBias whether the layer has no bias
 * @param flatten whether inputs of rank above 2 are flattened first (MXNet's {@code flatten})
 */
public record DenseSpec(int units, Act activation, boolean noBias, boolean flatten)
    implements LayerOp {
  /** {@code units} outputs, no activation, with a bias, flattening its input. */
  public static DenseSpec units(int units) {
    return new DenseSpec(units, Act.NONE, false, true);
  }

  /** This layer followed by {@code activation}. */
  public DenseSpec activation(Act activation) {
    return new DenseSpec(units, activation, noBias, flatten);
  }

  /** This layer without a bias. */
  public DenseSpec withoutBias() {
    return new DenseSpec(units, activation, true, flatten);
  }

  /** This layer applied to the last axis only ({@code flatten = false}) or not. */
  public DenseSpec flatten(boolean flatten) {
    return new DenseSpec(units, activation, noBias, flatten);
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
}
