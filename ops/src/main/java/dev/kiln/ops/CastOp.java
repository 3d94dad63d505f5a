package dev.kiln.ops;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * MXNet's {@code Cast} ({@code cast}) to float32 in an imported file, as exports put before a
 * float32 head: the values as they are, in Kiln's one number type. A cast to another type is
 * refused when the file is read ({@code ImportAttribute}): Kiln computes in float32. Generated code
 * writes {@code CastOp.toFloat32()}. No annotation makes one: the importer's table ({@link
 * FileOps}) is its registry.
 */
public record CastOp() implements LayerOp {
  @Override
  public String annotation() {
    return "Cast";
  }

  @Override
  public String mxnetOp() {
    return "Cast";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // float32 only, checked when the file is read.
  }

  /** Free dimensions pass through: the rule reads none of them. */
  @Override
  public boolean takesFreeDims() {
    return true;
  }

  /** MXNet {@code Cast} ({@code ElemwiseShape}): the input's shape. */
  @Override
  public Inferred infer(ShapeSite site) {
    return Inferred.of(site.shape());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // copies only
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("node", Args.chain(CastOp.class, "toFloat32").build(), Args.x());
  }

  /** A cast to float32. */
  public static CastOp toFloat32() {
    return new CastOp();
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    return scope.op("Cast", Attrs.of("dtype", "float32"), inputs.get(0));
  }

  /** How the operator is read from a symbol file (it has no annotation). */
  static final Unit UNIT = Unit.of().file("Cast", List.of("cast"), CastOp::cast);

  static Mapped cast(FileAttrs a) {
    a.require("dtype", "float32", "Kiln computes in float32 only");
    return Mapped.unary(new CastOp());
  }
}
