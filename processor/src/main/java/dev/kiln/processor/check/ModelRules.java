package dev.kiln.processor.check;

import dev.kiln.ops.Op;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.ImportPlan;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.model.NodeSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The rules of a model as a whole, once every node's shape is known: which nodes are its inputs and
 * outputs, which inputs and nodes nothing reads (warnings), and whether its last node can be a
 * classifier's head (a softmax over {@code [BATCH, classes]}, the only output of a model with one
 * input).
 */
final class ModelRules {
  private final ModelSpec spec;
  private final Report report;
  private final String model;

  /** The rules for {@code spec}, reporting to {@code report}. */
  ModelRules(ModelSpec spec, Report report) {
    this.spec = spec;
    this.report = report;
    this.model = spec.simpleName();
  }

  /** The checked model made of {@code inferred}, or null when an error was reported. */
  CheckedModel check(Map<String, CheckedNode> inferred) {
    Head head = head(inferred);
    if (report.hasErrors()) {
      return null;
    }
    Set<String> consumed =
        spec.nodes().stream()
            .flatMap(n -> n.wires().stream())
            .map(NodeSpec.Wire::source)
            .collect(Collectors.toSet());
    List<CheckedNode> nodes = new ArrayList<>();
    List<CheckedNode> inputs = new ArrayList<>();
    List<CheckedNode> outputs = new ArrayList<>();
    for (NodeSpec n : spec.nodes()) {
      boolean output = !n.isInput() && (!consumed.contains(n.name()) || n.markedOutput());
      CheckedNode c = inferred.get(n.name()).withUse(output, consumed.contains(n.name()));
      nodes.add(c);
      if (n.isInput()) {
        inputs.add(c);
      } else if (output) {
        outputs.add(c);
      }
    }
    if (outputs.isEmpty()) {
      report.add(Message.MODEL_EMPTY, spec.element(), model);
      return null;
    }
    CheckedNode lossHead = lossHead(outputs);
    if (report.hasErrors()) {
      return null;
    }
    // Only on an otherwise clean model: a misspelt wire leaves its input unread, and the one
    // mistake should give one diagnostic. An input without BATCH beside one with it is deliberate
    // (a mask or a table fed with every call, broadcast against the examples); a model none of
    // whose inputs has BATCH has most likely forgotten it.
    boolean batched = inputs.stream().anyMatch(n -> n.shape().hasBatch());
    for (CheckedNode n : inputs) {
      if (!consumed.contains(n.name())) {
        report.add(Message.UNUSED_INPUT, n.spec().method(), n.name(), model);
      } else if (!batched) {
        report.add(
            Message.INPUT_WITHOUT_BATCH,
            n.spec().method(),
            n.spec().mirror(),
            "shape",
            n.spec().declaration(model),
            n.name(),
            n.shape(),
            n.shape().dim(0),
            n.shape(),
            n.shape().asArguments());
      }
    }
    if (!spec.classifier()) {
      for (CheckedNode n : outputs) {
        if (n.spec() != spec.last() && !n.spec().markedOutput() && !consumed.contains(n.name())) {
          report.add(Message.UNUSED_NODE, n.spec().method(), n.name(), model);
        }
      }
    }
    CheckedNode classifierHead = null;
    String notClassifier = head.reason();
    if (head.softmax() != null && inputs.size() > 1) {
      String names = inputs.stream().map(CheckedNode::name).collect(Collectors.joining(", "));
      if (spec.classifier()) {
        report.add(
            Message.CLASSIFIER_INPUTS,
            spec.element(),
            spec.mirror(),
            "classifier",
            model,
            inputs.size(),
            names);
        return null;
      }
      notClassifier = Message.REASON_SEVERAL_INPUTS.text(inputs.size(), names);
    } else if (head.softmax() != null) {
      CheckedNode softmax =
          outputs.stream().filter(o -> o.spec() == head.softmax()).findFirst().orElse(null);
      CheckedNode other = outputs.stream().filter(o -> o != softmax).findFirst().orElse(null);
      if (other == null) {
        classifierHead = softmax;
      } else {
        String why =
            (other.spec().markedOutput()
                    ? Message.REASON_MARKED_OUTPUT
                    : Message.REASON_READ_BY_NONE)
                .text();
        if (spec.classifier()) {
          report.add(
              Message.CLASSIFIER_OUTPUTS,
              other.spec().method(),
              head.softmax().name(),
              model,
              other.name(),
              why,
              outputFix(other));
          return null;
        }
        notClassifier = Message.REASON_OTHER_OUTPUT.text(head.softmax().name(), other.name(), why);
      }
    }
    for (CheckedNode n : nodes) {
      // A block's custom layers get their note where the block is compiled, not once per copy.
      if (n.spec().inlined() == null) {
        n.spec()
            .layer()
            .tracedBody()
            .filter(body -> body.unchecked() != null)
            .ifPresent(body -> noteBodyAtBuild(n, body, inferred));
      }
    }
    nodes = planned(nodes, classifierHead, inferred);
    inputs = planned(inputs, classifierHead, inferred);
    outputs = planned(outputs, classifierHead, inferred);
    classifierHead =
        classifierHead == null ? null : planned(classifierHead, classifierHead, inferred);
    List<CheckedNode> order = orderOf(inferred, nodes);
    if (lossHead != null) {
      String name = lossHead.name();
      lossHead = outputs.stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
    }
    return new CheckedModel(
        spec,
        nodes,
        order,
        inputs,
        outputs,
        classifierHead,
        classifierHead == null ? notClassifier : null,
        lossHead,
        ImportPlan.of(nodes, order));
  }

  /**
   * The model's loss head, or null without one. A loss head ends the model: nothing may read it
   * ({@code LossConsumed}, on the reader's wire) and it must be the only output ({@code
   * LossOutputs}, on the other output), since training minimises one loss.
   */
  private CheckedNode lossHead(List<CheckedNode> outputs) {
    Map<String, NodeSpec> byName = new LinkedHashMap<>();
    spec.nodes().forEach(n -> byName.putIfAbsent(n.name(), n));
    for (NodeSpec reader : spec.nodes()) {
      for (NodeSpec.Wire w : reader.wires()) {
        NodeSpec source = byName.get(w.source());
        if (source != null && source.layer().lossHead().isPresent()) {
          report.add(
              Message.LOSS_CONSUMED,
              w.parameter(),
              model,
              reader.name(),
              source.name(),
              source.name(),
              source.wires().get(0).source());
          return null;
        }
      }
    }
    CheckedNode loss =
        outputs.stream()
            .filter(o -> o.spec().layer().lossHead().isPresent())
            .findFirst()
            .orElse(null);
    if (loss == null) {
      return null;
    }
    for (CheckedNode other : outputs) {
      if (other != loss) {
        String why =
            (other.spec().markedOutput()
                    ? Message.REASON_MARKED_OUTPUT
                    : Message.REASON_READ_BY_NONE)
                .text();
        report.add(
            Message.LOSS_OUTPUTS,
            other.spec().method(),
            loss.name(),
            model,
            other.name(),
            why,
            outputFix(other));
        return null;
      }
    }
    return loss;
  }

  /** How to stop {@code other} being a second output: unmark it, or wire or remove it. */
  private static String outputFix(CheckedNode other) {
    return (other.spec().markedOutput() ? Message.FIX_MARKED_OUTPUT : Message.FIX_READ_BY_NONE)
        .text(other.name());
  }

  /** {@code nodes}, each with the call that emits it. */
  private static List<CheckedNode> planned(
      List<CheckedNode> nodes, CheckedNode head, Map<String, CheckedNode> inferred) {
    return nodes.stream().map(n -> planned(n, head, inferred)).toList();
  }

  /** {@code n} with the call its op plans for it. */
  private static CheckedNode planned(
      CheckedNode n, CheckedNode head, Map<String, CheckedNode> inferred) {
    boolean isHead = head != null && head.name().equals(n.name());
    List<String> sources = n.spec().wires().stream().map(NodeSpec.Wire::source).toList();
    List<TShape> in = sources.stream().map(s -> inferred.get(s).shape()).toList();
    return n.withCall(
        n.spec().layer().call(new CallSite(n.name(), n.shape(), sources, in, isHead)));
  }

  /**
   * Notes, on a node of a custom layer whose forward body the compiler could not trace (not javac,
   * a class file, or a body beyond a line of {@code Sym} operations), that only the graph build
   * checks it, why, and the shapes that body will meet.
   */
  private void noteBodyAtBuild(CheckedNode n, Op.TracedBody c, Map<String, CheckedNode> inferred) {
    String source = n.spec().wires().get(0).source();
    List<String> params = n.params().stream().map(p -> p.name() + " " + p.shape()).toList();
    String withParams =
        switch (params.size()) {
          case 0 -> "no parameters";
          case 1 -> "parameter " + params.get(0);
          default ->
              "parameters "
                  + String.join(", ", params.subList(0, params.size() - 1))
                  + " and "
                  + params.get(params.size() - 1);
        };
    String forward = c.forward();
    TShape in = inferred.get(source).shape();
    // A cell runs one step at a time: the sequence without its steps axis, and the state.
    String reads =
        c.cell()
            ? "once per step; each step reads "
                + withoutSteps(in)
                + " of "
                + in
                + " from "
                + source
                + " and the previous state "
                + withoutSteps(n.shape())
            : "it reads " + in + " from " + source;
    report.add(
        Message.CUSTOM_BODY_AT_BUILD,
        n.spec().method(),
        n.spec().mirror(),
        null,
        n.spec().declaration(model),
        c.cell() ? "step" : "forward body",
        c.layer(),
        forward,
        c.unchecked(),
        reads,
        withParams,
        c.cell() ? "the new state " + withoutSteps(n.shape()) : n.shape());
  }

  /** {@code [N, steps, d...]} without its steps: {@code [N, d...]}. */
  private static TShape withoutSteps(TShape s) {
    List<Integer> dims = new ArrayList<>(s.dims());
    dims.remove(1);
    return new TShape(dims);
  }

  /** {@code nodes} in the order in which {@code inferred} was filled (the wiring order). */
  private static List<CheckedNode> orderOf(
      Map<String, CheckedNode> inferred, List<CheckedNode> nodes) {
    Map<String, CheckedNode> byName = new LinkedHashMap<>();
    nodes.forEach(n -> byName.put(n.name(), n));
    return inferred.keySet().stream().map(byName::get).toList();
  }

  /**
   * What the last node says about classifier training: the softmax that can be its head, or why
   * there is none.
   *
   * @param softmax the last node, when it is a softmax along the last axis of {@code [BATCH,
   *     classes]}; otherwise null
   * @param reason why the model is not a classifier, when {@code softmax} is null
   */
  private record Head(NodeSpec softmax, String reason) {}

  /**
   * The last node if it can be a classifier's head: a softmax along the last axis of a {@code
   * [BATCH, classes]} tensor. With {@code classifier = true} anything else is an error.
   */
  private Head head(Map<String, CheckedNode> inferred) {
    NodeSpec last = spec.last();
    if (last == null) {
      return new Head(null, Message.REASON_NO_NODES.text());
    }
    OptionalInt softmaxAxis = last.layer().softmaxAxis();
    if (softmaxAxis.isEmpty()) {
      if (spec.classifier()) {
        report.add(
            Message.CLASSIFIER_NEEDS_SOFTMAX,
            last.method(),
            last.mirror(),
            null,
            last.declaration(model),
            model,
            last.name(),
            last.annotationText(),
            last.name());
      }
      Message reason =
          last.layer().lossHead().isPresent()
              ? Message.REASON_LOSS_HEAD
              : Message.REASON_LAST_NOT_SOFTMAX;
      return new Head(null, reason.text(last.name(), last.annotationText()));
    }
    CheckedNode checked = inferred.get(last.name());
    if (checked == null) {
      return new Head(null, Message.REASON_LAST_NODE_FAILED.text(last.name()));
    }
    int axis = softmaxAxis.getAsInt();
    TShape shape = checked.shape();
    boolean batchFirst = shape.rank() > 0 && shape.dim(0) == TShape.BATCH;
    boolean fits = batchFirst && shape.rank() == 2 && (axis == -1 || axis == 1);
    NodeSpec unbatched = batchFirst ? null : unbatchedInput(inferred);
    if (!fits && spec.classifier() && unbatched != null) {
      TShape in = inferred.get(unbatched.name()).shape();
      report.add(
          Message.CLASSIFIER_SHAPE,
          unbatched.method(),
          unbatched.mirror(),
          "shape",
          unbatched.declaration(model),
          model,
          last.name(),
          shape,
          axis,
          "its "
              + shape.dim(0)
              + " is the first dimension of input "
              + unbatched.name()
              + ", which has no BATCH, so the layers read it as "
              + shape.dim(0)
              + " examples: declare @Input(shape = {BATCH, "
              + in.asArguments()
              + "})");
    } else if (!fits) {
      if (spec.classifier()) {
        boolean overRows = checked.shape().rank() == 2;
        report.add(
            Message.CLASSIFIER_SHAPE,
            last.method(),
            last.mirror(),
            overRows ? "axis" : null,
            last.declaration(model),
            model,
            last.name(),
            checked.shape(),
            axis,
            overRows
                ? "a softmax over the classes is over axis -1, @Softmax's default: drop axis = "
                    + axis
                : "make what it reads [BATCH, classes] first, e.g. with a node @Flatten and a node "
                    + "@Dense(units = "
                    + classes(checked.shape(), axis)
                    + ") before it");
      }
      return new Head(
          null, Message.REASON_SOFTMAX_NOT_OVER_CLASSES.text(last.name(), axis, checked.shape()));
    }
    return new Head(last, null);
  }

  /** The first input of the model whose shape has no {@code BATCH}, or null. */
  private NodeSpec unbatchedInput(Map<String, CheckedNode> inferred) {
    for (NodeSpec n : spec.nodes()) {
      CheckedNode c = inferred.get(n.name());
      if (n.isInput() && c != null && !c.shape().hasBatch()) {
        return n;
      }
    }
    return null;
  }

  /** The number of classes a softmax along {@code axis} of {@code shape} is over, if known. */
  private static String classes(TShape shape, int axis) {
    int a = axis < 0 ? axis + shape.rank() : axis;
    boolean known = a >= 0 && a < shape.rank() && shape.dim(a) > 0;
    return known ? Integer.toString(shape.dim(a)) : "classes";
  }
}
