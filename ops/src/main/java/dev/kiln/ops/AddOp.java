package dev.kiln.ops;

import dev.kiln.annotations.Add;
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
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * An element-wise sum of equal shapes ({@code @Add}): MXNet's {@code elemwise_add} for two inputs,
 * {@code add_n} for more. Generated code writes {@code AddOp.of()}.
 */
public record AddOp() implements LayerOp {
  static final OpReader<Add> READER = OpReader.of(Add.class, a -> new AddOp());

  @Override
  public String annotation() {
    return "Add";
  }

  @Override
  public String mxnetOp() {
    return "elemwise_add";
  }

  @Override
  public int arity() {
    return 2;
  }

  @Override
  public boolean variadic() {
    return true;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // No attributes.
  }

  /** Free dimensions pass through, and must be the same expressions in every input. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /** MXNet {@code elemwise_add} and {@code add_n}: every input has the same shape. */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape first = site.shape();
    for (Source s : site.in()) {
      if (!s.shape().equals(first)) {
        for (int i = 0; s.shape().rank() == first.rank() && i < first.rank(); i++) {
          if (ShapeSite.sameFree(first.dim(i), s.shape().dim(i)) == Boolean.FALSE) {
            throw site.unequal("@Add", "equal shapes", i, site.x(), s);
          }
        }
        throw site.fail(
            Message.SHAPE_MISMATCH,
            null,
            site.where(),
            "@Add",
            Source.describeAll(site.in()),
            fitHint(site.x(), s));
      }
    }
    return Inferred.of(first);
  }

  /**
   * How to give {@code odd} the shape of {@code target}: reshape it when it holds as many values
   * per example, project it with a dense layer onto {@code [BATCH, n]}, or else change the layers
   * that make it.
   */
  private static String fitHint(Source target, Source odd) {
    TShape t = target.shape();
    TShape o = odd.shape();
    String name = odd.node();
    boolean batchFirst =
        t.rank() > 0
            && o.rank() > 0
            && t.dim(0) == TShape.BATCH
            && o.dim(0) == TShape.BATCH
            && t.product(1) > 0
            && o.product(1) > 0;
    if (batchFirst && t.product(1) == o.product(1)) {
      return "reshape "
          + name
          + " to "
          + t
          + " first, with a node @Reshape(shape = {"
          + t.asArguments()
          + "}) that reads "
          + name
          + ", and add that node instead";
    }
    if (batchFirst && t.rank() == 2) {
      return "project "
          + name
          + " to "
          + t
          + " first, with a node @Dense(units = "
          + t.dim(1)
          + ") that reads "
          + name
          + ", and add that node instead";
    }
    String change =
        "give every input the shape of "
            + target.node()
            + ", "
            + t
            + ", e.g. by "
            + "changing the layers that make "
            + name;
    String projection = batchFirst && t.rank() == 4 && o.rank() == 4 ? projection(t, o) : null;
    String projected = name;
    TShape onto = t;
    if (projection == null && batchFirst && t.rank() == 4 && o.rank() == 4) {
      // The skip path may be the first input: project it onto the other's shape instead.
      projection = projection(o, t);
      projected = target.node();
      onto = o;
    }
    if (projection == null) {
      return change;
    }
    return "project "
        + projected
        + " to "
        + onto
        + " first, with a 1x1 convolution "
        + projection
        + " that reads "
        + projected
        + ", and add that node instead (the usual projection shortcut), or "
        + change;
  }

  /**
   * The 1x1 {@code @Conv2D} that maps images {@code from} ({@code [BATCH, C, H, W]}) onto {@code
   * onto}'s shape: {@code onto}'s channels as filters, and the stride along each axis that MXNet's
   * rule for a window of 1 without padding, {@code (in - 1) / stride + 1}, takes from the one size
   * to the other; null when no stride does (the image would have to grow).
   */
  private static String projection(TShape onto, TShape from) {
    if (onto.dim(1) <= 0) {
      return null;
    }
    int[] strides = new int[2];
    for (int a = 0; a < 2; a++) {
      int in = from.dim(2 + a);
      int out = onto.dim(2 + a);
      if (in <= 0 || out <= 0 || out > in) {
        return null;
      }
      for (int s = 1; s <= in && strides[a] == 0; s++) {
        if ((in - 1) / s + 1 == out) {
          strides[a] = s;
        }
      }
      if (strides[a] == 0) {
        return null;
      }
    }
    String stride =
        strides[0] == strides[1]
            ? strides[0] == 1 ? "" : ", stride = " + strides[0]
            : ", stride = {" + strides[0] + ", " + strides[1] + "}";
    return "@Conv2D(filters = " + onto.dim(1) + ", kernel = 1" + stride + ")";
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return (in.size() - 1) * out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node", Args.chain(AddOp.class, "of").build(), new NodeCall.Inputs());
  }

  /** The sum. */
  public static AddOp of() {
    return new AddOp();
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (inputs.size() == 2) {
      return scope.op("elemwise_add", scope.node(), Attrs.of(), List.of("lhs", "rhs"), inputs);
    }
    return scope.op("add_n", scope.node(), Attrs.of("num_args", inputs.size()), null, inputs);
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(READER)
          .file("elemwise_add", List.of("_Plus", "_plus", "_add"), a -> Mapped.data(new AddOp(), 2))
          .file("add_n", List.of("ElementWiseSum"), AddOp::addN)
          .file("broadcast_add", List.of("broadcast_plus"), a -> Mapped.data(new AddOp(), 2));

  static Mapped addN(FileAttrs a) {
    return Mapped.data(new AddOp(), a.integer("num_args", 2));
  }
}
