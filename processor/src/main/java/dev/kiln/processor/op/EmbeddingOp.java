package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.Embedding;
import dev.kiln.names.ParamRole;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code @Embedding}: MXNet's {@code Embedding}.
 *
 * @param inputDim rows: the number of distinct indices
 * @param outputDim columns: the size of each vector
 */
record EmbeddingOp(int inputDim, int outputDim) implements Op {
  static final OpReader<Embedding> READER =
      OpReader.of(
          Embedding.class,
          e -> new EmbeddingOp(e.inputDim(), e.outputDim()),
          "inputDim",
          "outputDim");

  @Override
  public String annotation() {
    return "Embedding";
  }

  @Override
  public String mxnetOp() {
    return "Embedding";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.positive("inputDim", inputDim);
    site.positive("outputDim", outputDim);
  }

  /**
   * MXNet {@code EmbeddingOpShape}: one vector of {@code outputDim} per index, weight {@code
   * [inputDim, outputDim]}.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    List<Integer> out = new ArrayList<>(site.shape().dims());
    out.add(outputDim);
    return new Inferred(
        new TShape(out),
        List.of(site.param(ParamRole.WEIGHT, TShape.of(inputDim, outputDim))),
        List.of());
  }

  @Override
  public long flops(List<TShape> in, TShape out) {
    return 0; // a row lookup
  }

  @Override
  public NodeCall call(CallSite site) {
    return NodeCall.Builder.of(
        "node",
        chain("EmbeddingSpec", "rows", i(inputDim)).then("columns", i(outputDim)).build(),
        x());
  }
}
