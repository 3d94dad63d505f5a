package dev.kiln.processor.check;

import dev.kiln.names.NodeNames;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.BlockSpec;
import dev.kiln.processor.model.BodyError;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.model.NodeSpec;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Phase two: checks a model as read and describes it for the writers. Three steps, each on the
 * result of the one before: resolve the wiring ({@link Wiring}), infer every node's shape,
 * parameters and cost (each node's {@link dev.kiln.ops.Op}: its shape rule and cost), and check the
 * model as a whole ({@link ModelRules}: outputs, unused nodes, the classifier head, and the call
 * each node's op plans for the writers).
 */
public final class ModelChecker {
  private final Report report;

  /** A checker that reports to {@code report}. */
  public ModelChecker(Report report) {
    this.report = report;
  }

  /** The checked model, or null when an error was reported. */
  public CheckedModel check(ModelSpec spec) {
    Wiring wiring = Wiring.resolve(spec, report);
    Map<String, CheckedNode> inferred = infer(spec, wiring);
    return new ModelRules(spec, report).check(inferred);
  }

  /**
   * Every node whose inputs are known, in wiring order, with its shape rule applied. A node whose
   * rule fails is reported and left out, and so are the nodes that read it, silently.
   */
  private Map<String, CheckedNode> infer(ModelSpec spec, Wiring wiring) {
    Map<String, CheckedNode> done = new LinkedHashMap<>();
    Set<String> refusedBlocks = new HashSet<>();
    for (NodeSpec n : wiring.order()) {
      if (wiring.isBroken(n) || n.wires().stream().anyMatch(w -> !done.containsKey(w.source()))) {
        continue;
      }
      if (n.inlined() != null && !blockTakesInput(spec, n, done, wiring, refusedBlocks)) {
        continue;
      }
      List<Source> in =
          n.wires().stream()
              .map(w -> source(done.get(w.source()).shape(), wiring.node(w.source())))
              .toList();
      String where = n.declaration(spec.simpleName());
      try {
        Inferred r = n.layer().infer(site(where, n, in));
        if (n.frozen() && r.params().isEmpty() && n.origin() == null) {
          report.add(
              Message.FROZEN_WITHOUT_PARAMS,
              n.method(),
              n.frozenMirror(),
              null,
              where,
              n.annotationText());
        }
        List<TShape> shapes = in.stream().map(Source::shape).toList();
        long flops = n.layer().flops(shapes, r.shape());
        done.put(
            n.name(),
            new CheckedNode(n, r.shape(), r.params(), r.aux(), flops, false, false, null));
      } catch (RuleError e) {
        report.add(e.message, n.method(), n.mirror(), e.attribute, e.args);
      } catch (BodyError e) {
        e.reportTo(report);
      }
    }
    return done;
  }

  /**
   * Whether the first copy of the block that {@code n} belongs to takes what it reads, when {@code
   * n} reads it; reported once per block on the {@code @Block} node, whose copies are then left
   * out.
   */
  private boolean blockTakesInput(
      ModelSpec spec,
      NodeSpec n,
      Map<String, CheckedNode> done,
      Wiring wiring,
      Set<String> refused) {
    BlockSpec b = spec.block(n.inlined().block());
    if (refused.contains(b.name())) {
      return false;
    }
    String input = b.copyInputs().get(0);
    if (n.inlined().copy() != 0 || n.wires().stream().noneMatch(w -> w.source().equals(input))) {
      return true;
    }
    TShape actual = done.get(input).shape();
    if (BlockSpec.accepts(b.declaredInput(), actual)) {
      return true;
    }
    refused.add(b.name());
    report.add(
        Message.BLOCK_INPUT,
        b.method(),
        b.mirror(),
        "value",
        b.declaration(spec.simpleName()),
        b.type(),
        b.declaredInput(),
        b.inputName(),
        source(actual, wiring.node(input)).describe());
    return false;
  }

  /** An input of shape {@code shape} made by {@code node}, as the shape rules see it. */
  static Source source(TShape shape, NodeSpec node) {
    return new Source(shape, node.name(), node.annotationText());
  }

  /** Where {@code n}'s shape rule runs, named {@code where}, over inputs {@code in}. */
  static ShapeSite site(String where, NodeSpec n, List<Source> in) {
    return new ShapeSite(
        where,
        n.name(),
        n.annotationText(),
        n.wires().stream().map(NodeSpec.Wire::parameterName).toList(),
        role -> n.origin() == null ? NodeNames.of(n.name(), role) : n.origin().name(role, n.name()),
        in);
  }
}
