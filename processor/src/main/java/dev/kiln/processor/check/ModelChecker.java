package dev.kiln.processor.check;

import dev.kiln.names.NodeNames;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ParamInfo;
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
import java.util.ArrayList;
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
    FreeDims dims = new FreeDims(spec, report);
    Map<String, CheckedNode> inferred = infer(spec, wiring, dims);
    if (!dims.checkUsed()) {
      return null;
    }
    CheckedModel checked = new ModelRules(spec, report).check(inferred);
    return checked == null ? null : checked.withRequirements(dims.requirements());
  }

  /**
   * Every node whose inputs are known, in wiring order, with its shape rule applied. A node whose
   * rule fails is reported and left out, and so are the nodes that read it, silently.
   */
  private Map<String, CheckedNode> infer(ModelSpec spec, Wiring wiring, FreeDims dims) {
    Map<String, CheckedNode> done = new LinkedHashMap<>();
    Set<String> refusedBlocks = new HashSet<>();
    Map<String, ParamInfo> declared = new LinkedHashMap<>();
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
      if (!n.layer().isInput() && !dims.accepts(n, where, in)) {
        continue;
      }
      try {
        List<dev.kiln.ops.rule.Requirement> needs = new ArrayList<>();
        Inferred r = n.layer().infer(site(where, n, in).withNeeds(needs::add));
        if (n.layer().isInput()) {
          r = dims.declared(n, r);
          if (r == null) {
            continue;
          }
        }
        if (!dims.keep(n, needs)) {
          continue;
        }
        if (n.frozen() && r.params().isEmpty() && n.origin() == null) {
          report.add(
              Message.FROZEN_WITHOUT_PARAMS,
              n.method(),
              n.frozenMirror(),
              null,
              where,
              n.annotationText());
        }
        List<ParamInfo> params = unshared(n, where, r.params(), declared);
        List<ParamInfo> aux = unshared(n, where, r.aux(), declared);
        if (params == null || aux == null) {
          continue;
        }
        List<TShape> shapes = in.stream().map(Source::shape).toList();
        long flops = n.layer().flops(shapes, r.shape());
        done.put(n.name(), new CheckedNode(n, r.shape(), params, aux, flops, false, false, null));
      } catch (RuleError e) {
        report.add(e.message, n.method(), n.mirror(), e.attribute, e.args);
      } catch (BodyError e) {
        e.reportTo(report);
      }
    }
    return done;
  }

  /**
   * {@code found}, the parameters or auxiliary states of node {@code n}, each checked against the
   * shape its file's variable declares ({@code __shape__}; else {@code ImportShapeHint}), without
   * those an earlier node declared already: a variable of an imported file that several nodes read
   * (the steps of an unrolled recurrent net, tied weights) is one array, owned by its first reader.
   * Null when one is read at another shape than before, which MXNet refuses too (reported, {@code
   * ImportSharedShape}).
   */
  private List<ParamInfo> unshared(
      NodeSpec n, String where, List<ParamInfo> found, Map<String, ParamInfo> declared) {
    List<ParamInfo> own = new ArrayList<>();
    String reader = n.origin() != null ? n.origin().fileNode() : n.name();
    for (ParamInfo p : found) {
      List<Integer> hint = n.origin() != null ? n.origin().shapeHints().get(p.name()) : null;
      if (hint != null && !fits(hint, p.shape())) {
        report.add(
            Message.IMPORT_SHAPE_HINT,
            n.method(),
            n.mirror(),
            "symbol",
            where,
            p.name(),
            hint.toString(),
            reader,
            p.shape());
        return null;
      }
      ParamInfo first = declared.putIfAbsent(p.name(), new ParamInfo(p.name(), reader, p.shape()));
      if (first == null) {
        own.add(p);
      } else if (!first.shape().equals(p.shape())) {
        report.add(
            Message.IMPORT_SHARED_SHAPE,
            n.method(),
            n.mirror(),
            n.origin() != null ? "symbol" : null,
            where,
            p.name(),
            first.node(),
            first.shape(),
            reader,
            p.shape());
        return null;
      }
    }
    return own;
  }

  /**
   * Whether {@code shape} is what the file's hint {@code hint} says: the same rank, and each size
   * the hint fixes (0 or -1 leave one open, as Gluon's deferred shapes do) equal.
   */
  private static boolean fits(List<Integer> hint, TShape shape) {
    if (hint.size() != shape.rank()) {
      return false;
    }
    for (int i = 0; i < hint.size(); i++) {
      if (hint.get(i) > 0 && hint.get(i) != shape.dim(i)) {
        return false;
      }
    }
    return true;
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
