package dev.kiln.ops.rule;

import java.util.List;

/**
 * What an op needs to know to plan the call that emits its node.
 *
 * @param node the node's name
 * @param shape the node's inferred output shape
 * @param sources the names of the nodes and inputs it reads, in wiring order
 * @param inputs their shapes, in the same order
 * @param classifierHead whether the node is the softmax that classifier training replaces
 */
public record CallSite(
    String node, TShape shape, List<String> sources, List<TShape> inputs, boolean classifierHead) {
  /** Copies the sources and their shapes. */
  public CallSite {
    sources = List.copyOf(sources);
    inputs = List.copyOf(inputs);
  }
}
