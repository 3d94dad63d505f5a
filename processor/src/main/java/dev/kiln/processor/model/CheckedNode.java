package dev.kiln.processor.model;

import java.util.List;

/**
 * One node that passed every check, with what the writers need to know about it.
 *
 * @param spec the node as read
 * @param shape its output shape
 * @param params its learnable parameters, possibly none
 * @param aux its auxiliary states (e.g. a batch norm's moving averages), possibly none
 * @param flops forward floating point operations per example, -1 when unknown
 * @param output whether the node is one of the model's outputs
 * @param read whether another node reads it
 */
public record CheckedNode(
    NodeSpec spec,
    TShape shape,
    List<ParamInfo> params,
    List<ParamInfo> aux,
    long flops,
    boolean output,
    boolean read) {
  /** Copies the lists. */
  public CheckedNode {
    params = List.copyOf(params);
    aux = List.copyOf(aux);
  }

  /** The node's name. */
  public String name() {
    return spec.name();
  }

  /** Number of learnable values (auxiliary states are not counted). */
  public long paramCount() {
    return params.stream().mapToLong(p -> p.shape().perExample()).sum();
  }

  /** Bytes of the node's float32 output per example. */
  public long activationBytes() {
    return 4 * shape.perExample();
  }

  /** This node with how the rest of the model uses it. */
  public CheckedNode withUse(boolean isOutput, boolean isRead) {
    return new CheckedNode(spec, shape, params, aux, flops, isOutput, isRead);
  }
}
