package dev.kiln.processor;

import java.util.List;
import java.util.Map;

/**
 * A model that passed every check: its nodes in an order where each follows what it reads,
 * the shape of every node and parameter, and its inputs and outputs. Writers read this and
 * decide nothing.
 *
 * @param spec the model as read
 * @param order every node, sources before readers, otherwise in declaration order
 * @param shapes the output shape of every node
 * @param params the parameters of every node that has some, in node order
 * @param inputs the input nodes, in declaration order
 * @param outputs the output nodes, in declaration order
 * @param classifierHead the softmax that classifier training turns into {@code SoftmaxOutput}:
 *     the last node, when it is a softmax over {@code [BATCH, classes]} and the only output;
 *     otherwise null
 * @param aux the auxiliary states (e.g. a batch norm's moving averages) of every node that has
 *     some, in node order
 */
record CheckedModel(ModelSpec spec, List<NodeSpec> order, Map<String, TShape> shapes,
    Map<String, List<ParamInfo>> params, List<NodeSpec> inputs, List<NodeSpec> outputs,
    NodeSpec classifierHead, Map<String, List<ParamInfo>> aux) {

  /**
   * One learnable parameter, or one auxiliary state (in {@link #aux}).
   *
   * @param name MXNet's name, {@code hidden_weight}
   * @param node the owning node
   * @param shape its shape
   */
  record ParamInfo(String name, String node, TShape shape) {}

  CheckedModel {
    order = List.copyOf(order);
    shapes = Map.copyOf(shapes);
    params = Map.copyOf(params);
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    aux = Map.copyOf(aux);
  }

  /** A model without auxiliary states. */
  CheckedModel(ModelSpec spec, List<NodeSpec> order, Map<String, TShape> shapes,
      Map<String, List<ParamInfo>> params, List<NodeSpec> inputs, List<NodeSpec> outputs,
      NodeSpec classifierHead) {
    this(spec, order, shapes, params, inputs, outputs, classifierHead, Map.of());
  }

  /** The auxiliary states of {@code node}, possibly none. */
  List<ParamInfo> auxOf(String node) {
    return aux.getOrDefault(node, List.of());
  }

  /** Every auxiliary state, in node order. */
  List<ParamInfo> allAux() {
    return order.stream().flatMap(n -> auxOf(n.name()).stream()).toList();
  }

  String name() {
    return spec.simpleName();
  }

  /** The parameters of {@code node}, possibly none. */
  List<ParamInfo> paramsOf(String node) {
    return params.getOrDefault(node, List.of());
  }

  /** Every parameter, in node order. */
  List<ParamInfo> allParams() {
    return order.stream().flatMap(n -> paramsOf(n.name()).stream()).toList();
  }

  /** Number of learnable values of {@code node}. */
  long paramCount(String node) {
    return paramsOf(node).stream().mapToLong(p -> p.shape().perExample()).sum();
  }
}
