package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.PRelu;
import dev.kiln.names.ParamRole;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.List;

/** {@code @PRelu}: MXNet's {@code LeakyReLU} with {@code act_type = prelu}, a slope per channel. */
record PReluOp() implements Op {
  static final OpReader<PRelu> READER = OpReader.of(PRelu.class, p -> new PReluOp());

  @Override
  public String annotation() {
    return "PRelu";
  }

  @Override
  public String mxnetOp() {
    return "LeakyReLU(prelu)";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // No attributes.
  }

  /**
   * MXNet {@code LeakyReLUShape} for {@code prelu}: the input's shape, and {@code gamma} of shape
   * {@code [C]}, {@code C} the size of axis 1, which must exist and be known.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    if (s.rank() < 2) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          "@PRelu",
          "2 or more",
          "[N, C, ...]",
          site.x().describe(),
          "");
    }
    int c = s.dim(1);
    if (c < 0) {
      throw site.fail(
          Message.UNKNOWN_CHANNELS,
          null,
          site.where(),
          "@PRelu",
          1,
          "its channels",
          site.x().describe());
    }
    return new Inferred(s, List.of(site.param(ParamRole.ALPHA, TShape.of(c))), List.of());
  }

  /** A comparison and a product per value. */
  @Override
  public long flops(List<TShape> in, TShape out) {
    return 2 * out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("node", Args.chain("PReluSpec", "perChannel").build(), x());
  }
}
