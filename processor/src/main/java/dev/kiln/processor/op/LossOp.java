package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.L1Loss;
import dev.kiln.annotations.L2Loss;
import dev.kiln.annotations.LogisticLoss;
import dev.kiln.annotations.Loss;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.List;
import java.util.Optional;

/**
 * The loss heads {@code @L2Loss}, {@code @L1Loss}, {@code @LogisticLoss} and {@code @Loss}: the
 * model's output in its own graph, {@code MakeLoss} over a per-value loss in the graph built for
 * training (the runtime's {@code LossSpec}).
 *
 * @param kind the runtime spec's factory: {@code l2}, {@code l1}, {@code logistic} or {@code loss}
 * @param annotation the annotation's simple name
 */
record LossOp(String kind, String annotation) implements Op {
  static final OpReader<L2Loss> L2_READER =
      OpReader.of(L2Loss.class, a -> new LossOp("l2", "L2Loss"));
  static final OpReader<L1Loss> L1_READER =
      OpReader.of(L1Loss.class, a -> new LossOp("l1", "L1Loss"));
  static final OpReader<LogisticLoss> LOGISTIC_READER =
      OpReader.of(LogisticLoss.class, a -> new LossOp("logistic", "LogisticLoss"));
  static final OpReader<Loss> LOSS_READER =
      OpReader.of(Loss.class, a -> new LossOp("loss", "Loss"));

  @Override
  public String mxnetOp() {
    return switch (kind) {
      case "l2" -> "LinearRegressionOutput";
      case "l1" -> "MAERegressionOutput";
      case "logistic" -> "LogisticRegressionOutput";
      default -> "MakeLoss";
    };
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public Optional<String> lossHead() {
    return Optional.of(annotation);
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    // No attributes.
  }

  /**
   * The input's shape, which must be {@code BATCH} and then known sizes; {@code @Loss}'s must be
   * one value per example.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    TShape s = site.shape();
    boolean known = s.rank() >= 1 && s.dim(0) == TShape.BATCH;
    for (int d = 1; d < s.rank(); d++) {
      known &= s.dim(d) > 0;
    }
    if (!known) {
      String hint =
          s.rank() >= 1 && s.dim(0) != TShape.BATCH
              ? "; its first dimension is not BATCH, so the model's input most likely lacks it: "
                  + "declare the input's shape with BATCH first, e.g. @Input(shape = {BATCH, ...})"
              : "";
      throw site.fail(Message.LOSS_SHAPE, null, site.where(), site.x().describe(), hint);
    }
    if (kind.equals("loss") && s.perExample() != 1) {
      throw site.fail(Message.LOSS_NOT_SCALAR, null, site.where(), site.x().describe());
    }
    return Inferred.of(s);
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return kind.equals("logistic") ? 4 * out.perExample() : out.perExample();
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node", chain("LossSpec", kind, i((int) site.shape().perExample())).build(), x());
  }
}
