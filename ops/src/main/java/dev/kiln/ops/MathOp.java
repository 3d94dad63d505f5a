package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.d;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeCall.Arg;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * One element-wise function of one tensor, with up to two constant numbers: MXNet's unary math
 * operators ({@code sqrt}, {@code exp}, {@code log}, {@code negative}, {@code abs}, {@code erf})
 * and the hard sigmoid. Only imports make it (an ONNX {@code Sqrt}, {@code HardSigmoid}); no
 * annotation declares it. (Arithmetic with one number, a scale or a constant exponent, is {@link
 * ScalarOp}'s.) Generated code writes {@code MathOp.sqrt()} or {@code MathOp.hardSigmoid(0.2,
 * 0.5)}.
 *
 * @param fn the function
 * @param a its first number (the hard sigmoid's slope), else 0
 * @param b its second number (the hard sigmoid's offset), else 0
 */
public record MathOp(Fn fn, double a, double b) implements LayerOp {
  /** The functions, each one MXNet operator. */
  public enum Fn {
    /** √x, MXNet {@code sqrt}. */
    SQRT("sqrt", "sqrt", 0),
    /** eˣ, MXNet {@code exp}. */
    EXP("exp", "exp", 0),
    /** ln x, MXNet {@code log}. */
    LOG("log", "log", 0),
    /** −x, MXNet {@code negative}. */
    NEGATE("negative", "negate", 0),
    /** |x|, MXNet {@code abs}. */
    ABS("abs", "abs", 0),
    /** The error function, MXNet {@code erf}. */
    ERF("erf", "erf", 0),
    /**
     * max(0, min(1, a·x + b)): MXNet's {@code _mul_scalar}, {@code _plus_scalar} and {@code clip},
     * not its {@code hard_sigmoid}, whose gradient MXNet 1.9.1 gets wrong (a third of the true one,
     * oneDNN on and off) when another node reads the same input too (a residual branch).
     */
    HARD_SIGMOID("clip", "hardSigmoid", 2);

    final String mxnet;
    final String factory;
    final int numbers;

    Fn(String mxnet, String factory, int numbers) {
      this.mxnet = mxnet;
      this.factory = factory;
      this.numbers = numbers;
    }
  }

  @Override
  public String annotation() {
    return "Math";
  }

  @Override
  public String mxnetOp() {
    return fn.mxnet;
  }

  @Override
  public int arity() {
    return 1;
  }

  /** The numbers are finite. */
  @Override
  public void checkAttributes(AttributeSite site) {
    if (!Double.isFinite(a)) {
      throw site.fail(Message.OUT_OF_RANGE, null, site.prefix(), fn.factory, "a finite number", a);
    }
    if (!Double.isFinite(b)) {
      throw site.fail(Message.OUT_OF_RANGE, null, site.prefix(), fn.factory, "a finite number", b);
    }
  }

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /** MXNet's element-wise shape rule: the input's shape. */
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
    Arg[] numbers =
        switch (fn.numbers) {
          case 0 -> new Arg[0];
          default -> new Arg[] {d(a), d(b)};
        };
    return NodeCall.Builder.of("node", chain(MathOp.class, fn.factory, numbers).build(), x());
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym x = inputs.get(0);
    if (fn == Fn.HARD_SIGMOID) {
      Sym scaled =
          scope.op(
              "_mul_scalar",
              scope.node() + "_scale",
              Attrs.of("scalar", a),
              List.of("data"),
              List.of(x));
      Sym shifted =
          scope.op(
              "_plus_scalar",
              scope.node() + "_shift",
              Attrs.of("scalar", b),
              List.of("data"),
              List.of(scaled));
      return scope.op("clip", Attrs.of("a_min", 0.0, "a_max", 1.0), shifted);
    }
    return scope.op(fn.mxnet, Attrs.of(), x);
  }

  /** √x. */
  public static MathOp sqrt() {
    return new MathOp(Fn.SQRT, 0, 0);
  }

  /** eˣ. */
  public static MathOp exp() {
    return new MathOp(Fn.EXP, 0, 0);
  }

  /** The natural logarithm. */
  public static MathOp log() {
    return new MathOp(Fn.LOG, 0, 0);
  }

  /** −x. */
  public static MathOp negate() {
    return new MathOp(Fn.NEGATE, 0, 0);
  }

  /** |x|. */
  public static MathOp abs() {
    return new MathOp(Fn.ABS, 0, 0);
  }

  /** The error function. */
  public static MathOp erf() {
    return new MathOp(Fn.ERF, 0, 0);
  }

  /** max(0, min(1, {@code alpha}·x + {@code beta})). */
  public static MathOp hardSigmoid(double alpha, double beta) {
    return new MathOp(Fn.HARD_SIGMOID, alpha, beta);
  }

  /** Read only from imports: no annotation, no symbol-file operator. */
  static final Unit UNIT = Unit.of();
}
