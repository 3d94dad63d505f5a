package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.ints;

import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
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
 * A tensor an imported model holds as a node of its own: one parameter {@code <node>_value} of the
 * file's shape, seen in a shape of as many values (a bias {@code [C]} seen as {@code [1, C, 1, 1]}
 * to broadcast against images), with no input. An ONNX initializer that feeds a layer as a tensor
 * rather than as its weight (the right side of a {@code MatMul}, an addend) is such a node,
 * trainable; a constant the file computes is one too, frozen by the import. Generated code writes
 * {@code ValueOp.of(64).as(1, 64, 1, 1)}. Only imports make it; no annotation declares it.
 *
 * @param shape the parameter's shape, as the file holds it
 * @param view the node's output shape: {@code shape}, or another of as many values
 */
public record ValueOp(List<Integer> shape, List<Integer> view) implements LayerOp {
  /** Copies the shapes. */
  public ValueOp {
    shape = List.copyOf(shape);
    view = List.copyOf(view);
  }

  /** A value of shape {@code dims}, seen as it is. */
  public static ValueOp of(int... dims) {
    List<Integer> s = Window.of(dims);
    return new ValueOp(s, s);
  }

  /** This value seen in shape {@code dims}, of as many values. */
  public ValueOp as(int... dims) {
    return new ValueOp(shape, Window.of(dims));
  }

  @Override
  public String annotation() {
    return "Value";
  }

  @Override
  public String mxnetOp() {
    return view.equals(shape) ? "variable" : "variable+Reshape";
  }

  @Override
  public int arity() {
    return 0;
  }

  /** Both shapes are known and positive, and hold as many values. */
  @Override
  public void checkAttributes(AttributeSite site) {
    for (List<Integer> dims : List.of(shape, view)) {
      for (int d : dims) {
        site.positive("shape", d);
      }
    }
    if (count(shape) != count(view)) {
      throw site.fail(
          Message.OUT_OF_RANGE,
          "shape",
          site.prefix(),
          "the view " + view,
          "as many values as " + shape,
          count(view));
    }
  }

  private static long count(List<Integer> dims) {
    long n = 1;
    for (int d : dims) {
      n *= d;
    }
    return n;
  }

  @Override
  public Inferred infer(ShapeSite site) {
    return new Inferred(
        new TShape(view), List.of(site.param(ParamRole.VALUE, new TShape(shape))), List.of());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0;
  }

  @Override
  public NodeCall call(CallSite site) {
    Args.Chain c = chain(ValueOp.class, "of", ints(toArray(shape)));
    if (!view.equals(shape)) {
      c = c.then("as", ints(toArray(view)));
    }
    return NodeCall.Builder.of("node", c.build());
  }

  private static int[] toArray(List<Integer> dims) {
    return dims.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The parameter, reshaped to the view when it differs. */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym value = scope.param(ParamRole.VALUE, new TShape(shape));
    if (view.equals(shape)) {
      return value;
    }
    return scope.op("Reshape", Attrs.of("shape", Attrs.tuple(toArray(view))), value);
  }

  /** Read only from imports: no annotation, no symbol-file operator. */
  static final Unit UNIT = Unit.of();
}
