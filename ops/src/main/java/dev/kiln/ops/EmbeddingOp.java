package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Embedding;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import dev.kiln.ops.FileOps.Arg;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedding ({@code @Embedding}): MXNet's {@code Embedding}, a table of {@code inputDim} rows of
 * {@code outputDim} values, {@code <node>_weight}, looked up by the integer-valued indices of its
 * input. Generated code writes {@code EmbeddingOp.rows(50).columns(8)}.
 *
 * @param inputDim rows: the number of distinct indices
 * @param outputDim columns: the size of each vector
 */
public record EmbeddingOp(int inputDim, int outputDim) implements LayerOp {
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

  /** Free dimensions pass through or follow the rule's arithmetic as expressions. */
  @Override
  public boolean takesFreeDims() {
    return true;
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
        chain(EmbeddingOp.class, "rows", i(inputDim)).then("columns", i(outputDim)).build(),
        x());
  }

  /** A table of {@code inputDim} rows; give its columns next. */
  public static EmbeddingOp rows(int inputDim) {
    return new EmbeddingOp(inputDim, 1);
  }

  /** This table with vectors of {@code outputDim} values. */
  public EmbeddingOp columns(int outputDim) {
    return new EmbeddingOp(inputDim, outputDim);
  }

  /**
   * MXNet's {@code Embedding}: each value of the input is a row index into {@code <node>_weight}
   * {@code [inputDim, outputDim]}; the indices pass a {@code BlockGrad}, since no gradient flows
   * into an index.
   */
  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    Sym indices =
        scope.op(
            "BlockGrad",
            scope.node() + "_indices",
            Attrs.of(),
            List.of("data"),
            inputs.subList(0, 1));
    return scope.op(
        "Embedding",
        scope.node(),
        Attrs.of("input_dim", inputDim, "output_dim", outputDim),
        List.of("data", "weight"),
        List.of(indices, scope.param(ParamRole.WEIGHT)));
  }

  /** How the layer is read: its annotation and the symbol-file operators it is. */
  static final Unit UNIT = Unit.of(READER).file("Embedding", List.of(), EmbeddingOp::embedding);

  static Mapped embedding(FileAttrs a) {
    a.require("dtype", "float32", "Kiln computes in float32");
    a.require("sparse_grad", "False", "Kiln's embedding has a dense gradient");
    Op op = new EmbeddingOp(a.integer("input_dim", 0), a.integer("output_dim", 0));
    return new Mapped(op, List.of(Arg.DATA, Arg.param(ParamRole.WEIGHT)));
  }
}
