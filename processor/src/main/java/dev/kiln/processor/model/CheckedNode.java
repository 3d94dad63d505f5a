package dev.kiln.processor.model;

import dev.kiln.names.StateRole;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.TShape;
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
 * @param call the call that emits the node, planned once the model is checked (null before)
 */
public record CheckedNode(
    NodeSpec spec,
    TShape shape,
    List<ParamInfo> params,
    List<ParamInfo> aux,
    long flops,
    boolean output,
    boolean read,
    NodeCall call) {
  /** Copies the lists. */
  public CheckedNode {
    params = List.copyOf(params);
    aux = List.copyOf(aux);
  }

  /** The node's name. */
  public String name() {
    return spec.name();
  }

  /**
   * Whether the graph builder freezes the node's parameters before it emits the node: marked
   * {@code @Frozen} and with parameters to freeze.
   */
  public boolean freezes() {
    return spec.frozen() && !params.isEmpty();
  }

  /**
   * Whether the node's one parameter is a fused recurrent vector that the model also shows gate by
   * gate ({@code params().<node>Gates()}).
   */
  public boolean gateViews() {
    return spec.layer().hasGateViews();
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
    return new CheckedNode(spec, shape, params, aux, flops, isOutput, isRead, call);
  }

  /** This node with the call that emits it. */
  public CheckedNode withCall(NodeCall plan) {
    return new CheckedNode(spec, shape, params, aux, flops, output, read, plan);
  }

  /**
   * The states the node carries from one call into the next, in the order the runtime keeps them
   * (e.g. {@code lstm_state}, {@code lstm_state_cell}); none for most nodes.
   */
  public List<CarriedState> carriedStates() {
    return spec.layer().carriedStates().stream()
        .map(r -> new CarriedState(r, r.of(name())))
        .toList();
  }

  /**
   * One state a node carries between calls.
   *
   * @param role which state
   * @param name its name, the graph argument it enters by
   */
  public record CarriedState(StateRole role, String name) {}
}
