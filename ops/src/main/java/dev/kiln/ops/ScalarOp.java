package dev.kiln.ops;

import static dev.kiln.ops.Args.d;

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
 * Arithmetic of every value with one number, MXNet's {@code _*_scalar} family in an imported file
 * ({@code _mul_scalar}, {@code _rminus_scalar}, ...): {@code x + s}, {@code x - s}, {@code s - x},
 * {@code x * s}, {@code x / s}, {@code s / x}, {@code max(x, s)}, {@code min(x, s)}, {@code x ^ s}
 * and {@code s ^ x}, each emitted as the MXNet operator it was read from. MXNet holds the number as
 * the input's type (float32 here); its {@code is_int} says only how NumPy mode types an integer
 * result. Generated code writes {@code ScalarOp.times(0.0078125)}. No annotation makes one: the
 * importer's table ({@link FileOps}) is its registry.
 *
 * @param kind which arithmetic
 * @param scalar the number
 */
public record ScalarOp(Kind kind, double scalar) implements LayerOp {
  /** The arithmetic, with MXNet's operator, its name before 1.0 and the factory's name. */
  public enum Kind {
    /** {@code x + s}. */
    PLUS("_plus_scalar", "_PlusScalar", "plus"),
    /** {@code x - s}. */
    MINUS("_minus_scalar", "_MinusScalar", "minus"),
    /** {@code s - x}. */
    RMINUS("_rminus_scalar", "_RMinusScalar", "subtractedFrom"),
    /** {@code x * s}. */
    MUL("_mul_scalar", "_MulScalar", "times"),
    /** {@code x / s}. */
    DIV("_div_scalar", "_DivScalar", "dividedBy"),
    /** {@code s / x}. */
    RDIV("_rdiv_scalar", "_RDivScalar", "dividing"),
    /** {@code max(x, s)}. */
    MAXIMUM("_maximum_scalar", "_MaximumScalar", "atLeast"),
    /** {@code min(x, s)}. */
    MINIMUM("_minimum_scalar", "_MinimumScalar", "atMost"),
    /** {@code x ^ s}. */
    POWER("_power_scalar", "_PowerScalar", "power"),
    /** {@code s ^ x}. */
    RPOWER("_rpower_scalar", "_RPowerScalar", "raising");

    final String mxnet;
    final String older;
    final String factory;

    Kind(String mxnet, String older, String factory) {
      this.mxnet = mxnet;
      this.older = older;
      this.factory = factory;
    }
  }

  @Override
  public String annotation() {
    return "Scalar";
  }

  @Override
  public String mxnetOp() {
    return kind.mxnet;
  }

  @Override
  public int arity() {
    return 1;
  }

  /** The number is a number (MXNet computes with NaN as it is, but no file means one). */
  @Override
  public void checkAttributes(AttributeSite site) {
    if (Double.isNaN(scalar)) {
      throw site.fail(Message.OUT_OF_RANGE, "scalar", site.prefix(), "scalar", "a number", scalar);
    }
  }

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /** MXNet's {@code BinaryScalarOp} ({@code ElemwiseShape}): the input's shape. */
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
        "node", Args.chain(ScalarOp.class, kind.factory, d(scalar)).build(), Args.x());
  }

  /** {@code x + s}. */
  public static ScalarOp plus(double s) {
    return new ScalarOp(Kind.PLUS, s);
  }

  /** {@code x - s}. */
  public static ScalarOp minus(double s) {
    return new ScalarOp(Kind.MINUS, s);
  }

  /** {@code s - x}. */
  public static ScalarOp subtractedFrom(double s) {
    return new ScalarOp(Kind.RMINUS, s);
  }

  /** {@code x * s}. */
  public static ScalarOp times(double s) {
    return new ScalarOp(Kind.MUL, s);
  }

  /** {@code x / s}. */
  public static ScalarOp dividedBy(double s) {
    return new ScalarOp(Kind.DIV, s);
  }

  /** {@code s / x}. */
  public static ScalarOp dividing(double s) {
    return new ScalarOp(Kind.RDIV, s);
  }

  /** {@code max(x, s)}. */
  public static ScalarOp atLeast(double s) {
    return new ScalarOp(Kind.MAXIMUM, s);
  }

  /** {@code min(x, s)}. */
  public static ScalarOp atMost(double s) {
    return new ScalarOp(Kind.MINIMUM, s);
  }

  /** {@code x ^ s}. */
  public static ScalarOp power(double s) {
    return new ScalarOp(Kind.POWER, s);
  }

  /** {@code s ^ x}. */
  public static ScalarOp raising(double s) {
    return new ScalarOp(Kind.RPOWER, s);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op(kind.mxnet, Attrs.of("scalar", scalar), inputs.get(0));
  }

  /** How the operators are read from a symbol file (they have no annotation): all ten. */
  static final Unit UNIT = unit();

  private static Unit unit() {
    Unit u = Unit.of();
    for (Kind k : Kind.values()) {
      u = u.file(k.mxnet, List.of(k.older), a -> read(k, a));
    }
    return u;
  }

  private static Mapped read(Kind kind, FileAttrs a) {
    a.ignore("is_int");
    return Mapped.unary(new ScalarOp(kind, a.decimal("scalar", 1)));
  }
}
