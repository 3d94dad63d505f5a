package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import java.util.List;

/**
 * One built-in layer as the runtime makes it: its attributes (the record's components, as the
 * processor wrote them into generated code), the MXNet operators a node of it emits and the
 * parameters it declares. Generated code hands one to {@link GraphBuilder#node}: {@code
 * builder.node(HIDDEN_SOURCE, DenseSpec.units(128).activation(Act.RELU), pixels)}. Every built-in
 * layer is listed here, and only here.
 */
public sealed interface LayerOp
    permits ActivationSpec,
        AttentionSpec,
        AddSpec,
        BatchNormSpec,
        BroadcastSpec,
        ClipSpec,
        ConcatSpec,
        ConvSpec,
        DeconvSpec,
        DenseSpec,
        DropoutSpec,
        EmbeddingSpec,
        FlattenSpec,
        GlobalPoolSpec,
        LayerNormSpec,
        LrnSpec,
        LossSpec,
        MatMulSpec,
        PoolSpec,
        PositionalEmbeddingSpec,
        PReluSpec,
        ReduceSpec,
        ReshapeSpec,
        RnnSpec,
        SliceSpec,
        SoftmaxSpec,
        TransposeSpec {
  /** How many inputs the layer takes: exactly this many, or at least as many when variadic. */
  default int arity() {
    return 1;
  }

  /** Whether {@link #arity()} is a minimum. */
  default boolean variadic() {
    return false;
  }

  /**
   * Emits the node over {@code inputs}, declaring its parameters, auxiliary states and build-time
   * checks through {@code scope}, and returns the node's output.
   */
  Sym build(NodeScope scope, List<Sym> inputs);
}
