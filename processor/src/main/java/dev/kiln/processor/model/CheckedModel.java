package dev.kiln.processor.model;

import dev.kiln.ops.LossOp;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.Requirement;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * A model that passed every check: its nodes with their shapes, parameters and costs, an order in
 * which each follows what it reads, and its inputs and outputs. Writers read this and decide
 * nothing; every list is in a fixed order, so the output is the same byte for byte on every
 * compiler and JVM.
 *
 * @param spec the model as read
 * @param nodes every node, in declaration order
 * @param order every node, sources before readers, otherwise in declaration order
 * @param inputs the input nodes, in declaration order
 * @param outputs the output nodes, in declaration order
 * @param classifierHead the softmax that classifier training turns into {@code SoftmaxOutput}: the
 *     last node, when it is a softmax over {@code [BATCH, classes]} and the only output of a model
 *     with one input; otherwise null
 * @param notClassifier why the model is not a classifier, when {@code classifierHead} is null (e.g.
 *     {@code its last node logits is @Dense(units = 10), not a @Softmax}); otherwise null
 * @param lossHead the loss head ({@code @L2Loss}, ...), the model's only output, whose training
 *     graph the model's trainer runs; null when the model has none
 * @param imports how the nodes expanded from imported symbol files are emitted
 * @param requirements what the model needs of its free dimensions' sizes, checked before an
 *     executor is bound: the declared constraints, then each layer rule not proved for every size
 */
public record CheckedModel(
    ModelSpec spec,
    List<CheckedNode> nodes,
    List<CheckedNode> order,
    List<CheckedNode> inputs,
    List<CheckedNode> outputs,
    CheckedNode classifierHead,
    String notClassifier,
    CheckedNode lossHead,
    ImportPlan imports,
    List<Requirement> requirements) {
  /** Copies the lists. */
  public CheckedModel {
    requirements = List.copyOf(requirements);
    nodes = List.copyOf(nodes);
    order = List.copyOf(order);
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
  }

  /** A model without free dimensions. */
  public CheckedModel(
      ModelSpec spec,
      List<CheckedNode> nodes,
      List<CheckedNode> order,
      List<CheckedNode> inputs,
      List<CheckedNode> outputs,
      CheckedNode classifierHead,
      String notClassifier,
      CheckedNode lossHead,
      ImportPlan imports) {
    this(
        spec,
        nodes,
        order,
        inputs,
        outputs,
        classifierHead,
        notClassifier,
        lossHead,
        imports,
        List.of());
  }

  /**
   * This model with {@code requirements}: what it needs of its free dimensions' sizes, declared and
   * found by the layers' rules, in that order.
   */
  public CheckedModel withRequirements(List<Requirement> requirements) {
    return new CheckedModel(
        spec,
        nodes,
        order,
        inputs,
        outputs,
        classifierHead,
        notClassifier,
        lossHead,
        imports,
        requirements);
  }

  /** Which loss the loss head computes; only for a model with one ({@link #lossHead()}). */
  public LossOp.Kind lossKind() {
    return lossHead.spec().layer().lossHead().orElseThrow();
  }

  /** The model interface's simple name. */
  public String name() {
    return spec.simpleName();
  }

  /** The package of the model and of the generated classes. */
  public String packageName() {
    return spec.packageName();
  }

  /** Every parameter, in declaration order of the nodes. */
  public List<ParamInfo> allParams() {
    return nodes.stream().flatMap(n -> n.params().stream()).toList();
  }

  /** Every auxiliary state, in declaration order of the nodes. */
  public List<ParamInfo> allAux() {
    return nodes.stream().flatMap(n -> n.aux().stream()).toList();
  }

  /** The node that owns {@code param}. */
  public CheckedNode owner(ParamInfo param) {
    return nodes.stream().filter(n -> n.name().equals(param.node())).findFirst().orElseThrow();
  }

  /** Number of learnable values of the whole model. */
  public long paramCount() {
    return nodes.stream().mapToLong(CheckedNode::paramCount).sum();
  }

  /** Forward FLOPs per example of the nodes whose cost is known. */
  public long knownFlops() {
    return nodes.stream().mapToLong(n -> Math.max(0, n.flops())).sum();
  }

  /** Whether every node's cost is known, so that {@link #knownFlops()} is the total. */
  public boolean flopsKnown() {
    return nodes.stream().allMatch(n -> n.flops() >= 0);
  }

  /** Bytes of every node's float32 output per example. */
  public long activationBytes() {
    return nodes.stream().mapToLong(CheckedNode::activationBytes).sum();
  }

  /** Whether some node's output shape is a custom layer's declared contract. */
  public boolean hasTracedNodes() {
    return nodes.stream().anyMatch(n -> n.spec().layer().tracedAtBuild());
  }

  /**
   * The nodes of the recurrent cells that read {@code STEPS} steps, in declaration order: the graph
   * is unrolled per number of steps when any does.
   */
  public List<String> cellsOverSteps() {
    return nodes.stream()
        .filter(n -> n.spec().layer().isCell() && n.shape().dim(1) == TShape.STEPS)
        .map(CheckedNode::name)
        .toList();
  }
}
