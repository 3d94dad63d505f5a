package dev.kiln.ops;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.NodeScope;
import java.util.List;

/**
 * One built-in layer, the one unit both the processor and the runtime use: its attributes (the
 * record's components) with their rules and shape function ({@link Op}), and the MXNet operators a
 * node of it emits ({@link #build}). Generated code constructs one and hands it to the runtime's
 * graph builder: {@code builder.node(HIDDEN_SOURCE, DenseOp.units(128).activation(Act.RELU),
 * pixels)}. Every built-in layer is registered in {@link Ops}, and only there.
 */
public interface LayerOp extends Op {
  /**
   * Emits the node over {@code inputs}, declaring its parameters, auxiliary states and build-time
   * checks through {@code scope}, and returns the node's output.
   */
  Sym build(NodeScope scope, List<Sym> inputs);
}
