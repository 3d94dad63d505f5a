package dev.kiln.processor.op;

import dev.kiln.annotations.Add;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.Source;
import dev.kiln.processor.model.TShape;
import java.util.List;

/** {@code @Add}: MXNet's {@code elemwise_add} for two inputs, {@code add_n} for more. */
record AddOp() implements Op {
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

  /** MXNet {@code elemwise_add} and {@code add_n}: every input has the same shape. */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape first = site.shape();
    for (Source s : site.in()) {
      if (!s.shape().equals(first)) {
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
    String name = odd.node().name();
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
    return "give every input the shape of "
        + target.node().name()
        + ", "
        + t
        + ", e.g. by "
        + "changing the layers that make "
        + name;
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return (in.size() - 1) * out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of("node", Args.chain("AddSpec", "of").build(), new NodeCall.Inputs());
  }
}
