package dev.kiln.processor;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Phase two: resolves every wire, orders the nodes, infers every shape and checks the model as
 * a whole. A node whose own check failed is "broken"; nodes that read a broken node are skipped
 * silently, so one mistake gives one error.
 */
final class ShapeChecker {
  private final Report report;

  ShapeChecker(Report report) {
    this.report = report;
  }

  /** The checked model, or null when an error was reported. */
  CheckedModel check(ModelSpec spec) {
    String model = spec.simpleName();
    Map<String, NodeSpec> byName = new LinkedHashMap<>();
    for (NodeSpec n : spec.nodes()) {
      byName.put(n.name(), n);
    }
    Set<String> broken = new HashSet<>();
    for (NodeSpec n : spec.nodes()) {
      if (!checkWires(model, n, byName) || !checkArity(model, n)) {
        broken.add(n.name());
      }
    }
    List<NodeSpec> order = order(spec, byName, broken);

    Map<String, TShape> shapes = new LinkedHashMap<>();
    Map<String, List<CheckedModel.ParamInfo>> params = new LinkedHashMap<>();
    Map<String, List<CheckedModel.ParamInfo>> aux = new LinkedHashMap<>();
    for (NodeSpec n : order) {
      if (broken.contains(n.name())) {
        continue;
      }
      if (n.wires().stream().anyMatch(w -> !shapes.containsKey(w.source()))) {
        broken.add(n.name());
        continue;
      }
      List<ShapeRules.Source> in = n.wires().stream()
          .map(w -> new ShapeRules.Source(shapes.get(w.source()), byName.get(w.source())))
          .toList();
      try {
        ShapeRules.Result r = ShapeRules.infer(n.declaration(model),
            n, in);
        shapes.put(n.name(), r.shape());
        if (!r.params().isEmpty()) {
          params.put(n.name(), r.params());
        }
        if (!r.aux().isEmpty()) {
          aux.put(n.name(), r.aux());
        }
        if (n.frozen() && r.params().isEmpty()) {
          report.add(Message.FROZEN_WITHOUT_PARAMS, n.method(), frozenMirror(n),
              null, n.declaration(model), n.annotationText());
        }
      } catch (ShapeRules.RuleError e) {
        report.add(e.message, n.method(), n.mirror(), e.attribute, e.args);
        broken.add(n.name());
      }
    }

    NodeSpec head = classifierHead(spec, shapes);
    Set<String> consumed = spec.nodes().stream().flatMap(n -> n.wires().stream())
        .map(NodeSpec.Wire::source).collect(Collectors.toSet());
    List<NodeSpec> inputs = new ArrayList<>();
    List<NodeSpec> outputs = new ArrayList<>();
    for (NodeSpec n : spec.nodes()) {
      if (n.isInput()) {
        inputs.add(n);
      } else if (!consumed.contains(n.name()) || n.markedOutput()) {
        outputs.add(n);
      }
    }
    if (report.hasErrors()) {
      return null;
    }
    if (outputs.isEmpty()) {
      report.add(Message.MODEL_EMPTY, spec.element(), model);
      return null;
    }
    // Only on an otherwise clean model: a misspelt wire leaves its input unread, and the one
    // mistake should give one diagnostic.
    for (NodeSpec n : inputs) {
      if (!consumed.contains(n.name())) {
        report.add(Message.UNUSED_INPUT, n.method(), n.name(), model);
      }
    }
    NodeSpec last = spec.nodes().get(spec.nodes().size() - 1);
    if (!spec.classifier()) {
      for (NodeSpec n : outputs) {
        if (n != last && !n.markedOutput() && !consumed.contains(n.name())) {
          report.add(Message.UNUSED_NODE, n.method(), n.name(), model);
        }
      }
    }
    if (head != null && !(outputs.size() == 1 && outputs.get(0) == head)) {
      if (spec.classifier()) {
        NodeSpec softmax = head;
        NodeSpec other = outputs.stream().filter(o -> o != softmax).findFirst().orElseThrow();
        report.add(Message.CLASSIFIER_OUTPUTS, other.method(), head.name(), model, other.name(),
            other.markedOutput() ? "is marked @Output" : "is read by no node", other.name());
        return null;
      }
      head = null;
    }
    return new CheckedModel(spec, order, shapes, params, inputs, outputs, head, aux);
  }

  /** The {@code @Frozen} annotation on {@code n}'s method, so that an IDE underlines it. */
  private static javax.lang.model.element.AnnotationMirror frozenMirror(NodeSpec n) {
    for (javax.lang.model.element.AnnotationMirror m : n.method().getAnnotationMirrors()) {
      if (m.getAnnotationType().toString().equals("dev.kiln.annotations.Frozen")) {
        return m;
      }
    }
    return n.mirror();
  }

  private boolean checkWires(String model, NodeSpec n, Map<String, NodeSpec> byName) {
    boolean ok = true;
    for (NodeSpec.Wire w : n.wires()) {
      if (!byName.containsKey(w.source())) {
        String hint = closest(w.source(), byName.keySet());
        report.add(Message.UNKNOWN_WIRE, w.parameter(), n.declaration(model), w.source(), model,
            hint == null ? "" : "; did you mean '" + hint + "'?");
        ok = false;
      }
    }
    return ok;
  }

  private boolean checkArity(String model, NodeSpec n) {
    LayerSpec layer = n.layer();
    int count = n.wires().size();
    boolean fits = layer.variadic() ? count >= layer.arity() : count == layer.arity();
    if (fits) {
      return true;
    }
    String takes = layer.arity() == 0 ? "no inputs"
        : layer.variadic() ? "at least " + layer.arity() + " inputs"
        : "exactly " + layer.arity() + (layer.arity() == 1 ? " input" : " inputs");
    String declared = n.wires().stream().map(NodeSpec.Wire::parameterName)
        .collect(Collectors.joining(", "));
    report.add(Message.INPUT_COUNT, n.method(), n.declaration(model), "@" + layer.annotation(),
        takes, n.name(), count, declared.isEmpty() ? "none" : declared);
    return false;
  }

  /**
   * Orders nodes so that each follows what it reads, keeping declaration order where it is
   * free. Nodes left over form a cycle: reported once, on the first of them.
   */
  private List<NodeSpec> order(ModelSpec spec, Map<String, NodeSpec> byName,
      Set<String> broken) {
    List<NodeSpec> order = new ArrayList<>();
    Set<String> placed = new HashSet<>();
    List<NodeSpec> pending = new ArrayList<>(spec.nodes());
    boolean progress = true;
    while (!pending.isEmpty() && progress) {
      progress = false;
      for (int i = 0; i < pending.size(); i++) {
        NodeSpec n = pending.get(i);
        boolean ready = n.wires().stream()
            .allMatch(w -> placed.contains(w.source()) || !byName.containsKey(w.source()));
        if (ready) {
          order.add(n);
          placed.add(n.name());
          pending.remove(i);
          progress = true;
          break;
        }
      }
    }
    if (!pending.isEmpty()) {
      List<String> cycle = findCycle(pending.get(0), byName, placed);
      NodeSpec first = byName.get(cycle.get(0));
      report.add(Message.CYCLE, first.method(), spec.simpleName(), String.join(" -> ", cycle));
      pending.forEach(n -> broken.add(n.name()));
    }
    return order;
  }

  /** Follows unplaced wires from {@code start} until a node repeats; returns that loop. */
  private static List<String> findCycle(NodeSpec start, Map<String, NodeSpec> byName,
      Set<String> placed) {
    List<String> path = new ArrayList<>();
    NodeSpec n = start;
    while (!path.contains(n.name())) {
      path.add(n.name());
      NodeSpec next = null;
      for (NodeSpec.Wire w : n.wires()) {
        NodeSpec s = byName.get(w.source());
        if (s != null && !placed.contains(s.name())) {
          next = s;
          break;
        }
      }
      n = next;
    }
    List<String> loop = new ArrayList<>(path.subList(path.indexOf(n.name()), path.size()));
    loop.add(n.name());
    return loop;
  }

  /**
   * The last node if it can be a classifier's head: a softmax along the last axis of a {@code
   * [BATCH, classes]} tensor. With {@code classifier = true} anything else is an error.
   */
  private NodeSpec classifierHead(ModelSpec spec, Map<String, TShape> shapes) {
    if (spec.nodes().isEmpty()) {
      return null;
    }
    NodeSpec last = spec.nodes().get(spec.nodes().size() - 1);
    if (!(last.layer() instanceof LayerSpec.Softmax softmax)) {
      if (spec.classifier()) {
        report.add(Message.CLASSIFIER_NEEDS_SOFTMAX, spec.element(), spec.mirror(),
            "classifier", spec.simpleName(), last.name(), last.annotationText());
      }
      return null;
    }
    TShape shape = shapes.get(last.name());
    if (shape == null) {
      return null;
    }
    boolean fits = shape.rank() == 2 && (softmax.axis() == -1 || softmax.axis() == 1);
    if (!fits && spec.classifier()) {
      report.add(Message.CLASSIFIER_SHAPE, spec.element(), spec.mirror(), "classifier",
          spec.simpleName(), last.name(), shape, softmax.axis());
    }
    return fits ? last : null;
  }

  /** The name within edit distance 2 (and less than half its length) closest to {@code name}. */
  static String closest(String name, Iterable<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = distance(name.toLowerCase(), c.toLowerCase());
      if (d < bestDistance && d <= 2 && d < Math.max(2, name.length() / 2 + 1)) {
        best = c;
        bestDistance = d;
      }
    }
    return best;
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
