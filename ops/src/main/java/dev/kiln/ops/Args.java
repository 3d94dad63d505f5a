package dev.kiln.ops;

import dev.kiln.annotations.Act;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeCall.Arg;
import java.util.ArrayList;
import java.util.List;

/** Short names for the arguments of a {@link NodeCall}, and the spec chains ops plan. */
final class Args {
  private Args() {}

  /** The node method's first parameter. */
  static Arg x() {
    return new NodeCall.Input(0);
  }

  static Arg i(int value) {
    return new NodeCall.Int(value);
  }

  static Arg d(double value) {
    return new NodeCall.Decimal(value);
  }

  static Arg act(Act act) {
    return new NodeCall.Activation(act);
  }

  /** {@code PoolConvention.FULL}: a constant of one of the annotations' enums. */
  static Arg constant(Enum<?> value) {
    return new NodeCall.Constant(value);
  }

  /** A window's values per spatial dimension, {@code 5, 5}. */
  static Arg[] ints(int[] values) {
    Arg[] out = new Arg[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = i(values[i]);
    }
    return out;
  }

  /** A unit chain: {@code type.method(args)}, then more calls. */
  static Chain chain(Class<? extends LayerOp> type, String method, Arg... args) {
    return new Chain(type, method, args);
  }

  /** A chain of calls on a runtime spec, built one call at a time. */
  static final class Chain {
    private final Class<? extends LayerOp> type;
    private final List<NodeCall.Link> links = new ArrayList<>();

    private Chain(Class<? extends LayerOp> type, String method, Arg... args) {
      this.type = type;
      links.add(NodeCall.Link.of(method, args));
    }

    /** This chain followed by {@code .method(args)}. */
    Chain then(String method, Arg... args) {
      links.add(NodeCall.Link.of(method, args));
      return this;
    }

    /** This chain followed by {@code .method(args)} if {@code condition}. */
    Chain when(boolean condition, String method, Arg... args) {
      return condition ? then(method, args) : this;
    }

    NodeCall.Chain build() {
      return new NodeCall.Chain(type, links);
    }
  }
}
