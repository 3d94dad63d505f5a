package dev.kiln.processor.check;

import dev.kiln.ops.Op;
import dev.kiln.ops.rule.Message;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.diag.Spelling;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.model.NodeSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The model's graph: every wire resolved to the node it reads, each node's input count checked
 * against its layer, and an order in which each node follows what it reads (declaration order where
 * it is free). A node with a bad wire or input count, or in a cycle, is broken; the shape phase
 * skips it and everything that reads it, so one mistake gives one error.
 */
final class Wiring {
  private final Map<String, NodeSpec> byName;
  private final List<NodeSpec> order;
  private final Set<String> broken;

  private Wiring(Map<String, NodeSpec> byName, List<NodeSpec> order, Set<String> broken) {
    this.byName = byName;
    this.order = order;
    this.broken = broken;
  }

  /** Resolves the wires of {@code spec}, reporting what does not fit. */
  static Wiring resolve(ModelSpec spec, Report report) {
    String model = spec.simpleName();
    Map<String, NodeSpec> byName = new LinkedHashMap<>();
    for (NodeSpec n : spec.nodes()) {
      byName.put(n.name(), n);
    }
    Set<String> broken = new HashSet<>();
    for (NodeSpec n : spec.nodes()) {
      if (!checkWires(report, model, n, byName) || !checkArity(report, model, n)) {
        broken.add(n.name());
      }
    }
    List<NodeSpec> order = order(report, spec, byName, broken);
    return new Wiring(byName, order, broken);
  }

  /** Every node, sources before readers. */
  List<NodeSpec> order() {
    return order;
  }

  /** Whether {@code n}'s wiring failed a check. */
  boolean isBroken(NodeSpec n) {
    return broken.contains(n.name());
  }

  /** The node called {@code name}. */
  NodeSpec node(String name) {
    return byName.get(name);
  }

  private static boolean checkWires(
      Report report, String model, NodeSpec n, Map<String, NodeSpec> byName) {
    boolean ok = true;
    for (NodeSpec.Wire w : n.wires()) {
      if (!byName.containsKey(w.source())) {
        String hint = Spelling.closest(w.source(), byName.keySet());
        report.add(
            Message.UNKNOWN_WIRE,
            w.parameter(),
            n.declaration(model),
            w.source(),
            model,
            hint == null ? "" : "; did you mean '" + hint + "'?");
        ok = false;
      }
    }
    return ok;
  }

  private static boolean checkArity(Report report, String model, NodeSpec n) {
    Op layer = n.layer();
    int count = n.wires().size();
    boolean fits = layer.variadic() ? count >= layer.arity() : count == layer.arity();
    if (fits) {
      return true;
    }
    String takes =
        layer.arity() == 0
            ? "no inputs"
            : layer.variadic()
                ? "at least " + layer.arity() + " inputs"
                : "exactly " + layer.arity() + (layer.arity() == 1 ? " input" : " inputs");
    String declared =
        n.wires().stream().map(NodeSpec.Wire::parameterName).collect(Collectors.joining(", "));
    report.add(
        Message.INPUT_COUNT,
        n.method(),
        n.declaration(model),
        "@" + layer.annotation(),
        takes,
        n.name(),
        count,
        declared.isEmpty() ? "none" : declared);
    return false;
  }

  /**
   * Orders nodes so that each follows what it reads, keeping declaration order where it is free.
   * Nodes left over form a cycle: reported once, on the first of them.
   */
  private static List<NodeSpec> order(
      Report report, ModelSpec spec, Map<String, NodeSpec> byName, Set<String> broken) {
    List<NodeSpec> order = new ArrayList<>();
    Set<String> placed = new HashSet<>();
    List<NodeSpec> pending = new ArrayList<>(spec.nodes());
    boolean progress = true;
    while (!pending.isEmpty() && progress) {
      progress = false;
      for (int i = 0; i < pending.size(); i++) {
        NodeSpec n = pending.get(i);
        boolean ready =
            n.wires().stream()
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
  private static List<String> findCycle(
      NodeSpec start, Map<String, NodeSpec> byName, Set<String> placed) {
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
}
