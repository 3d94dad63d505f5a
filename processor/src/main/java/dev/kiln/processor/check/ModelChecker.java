package dev.kiln.processor.check;

import dev.kiln.processor.diag.Message;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.model.NodeSpec;
import dev.kiln.processor.model.RuleError;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.Source;
import dev.kiln.processor.model.TShape;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Phase two: checks a model as read and describes it for the writers. Three steps, each on the
 * result of the one before: resolve the wiring ({@link Wiring}), infer every node's shape,
 * parameters and cost (each node's {@link dev.kiln.processor.model.Op}: its shape rule and cost),
 * and check the model as a whole ({@link ModelRules}: outputs, unused nodes, the classifier head,
 * and the call each node's op plans for the writers).
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
    for (NodeSpec n : wiring.order()) {
      if (wiring.isBroken(n) || n.wires().stream().anyMatch(w -> !done.containsKey(w.source()))) {
        continue;
      }
      List<Source> in =
          n.wires().stream()
              .map(w -> new Source(done.get(w.source()).shape(), wiring.node(w.source())))
              .toList();
      String where = n.declaration(spec.simpleName());
      try {
        Inferred r = n.layer().infer(new ShapeSite(where, n, in));
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
      }
    }
    return done;
  }
}
