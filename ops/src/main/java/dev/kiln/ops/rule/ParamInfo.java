package dev.kiln.ops.rule;

/**
 * One learnable parameter, or one auxiliary state, of a checked node.
 *
 * @param name MXNet's name, {@code hidden_weight}
 * @param node the owning node
 * @param shape its shape
 */
public record ParamInfo(String name, String node, TShape shape) {}
