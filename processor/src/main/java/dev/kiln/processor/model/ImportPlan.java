package dev.kiln.processor.model;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How the nodes expanded from imported symbol files are emitted, decided once the model is checked:
 * each import output's method emits the inner nodes only it reads, in graph order; a node the
 * file's other nodes read is kept in the graph's map of symbols.
 *
 * @param inner for each import output, the inner nodes its method emits, sources first
 * @param readInside the imported nodes that other imported nodes read
 */
public record ImportPlan(Map<String, List<CheckedNode>> inner, Set<String> readInside) {
  /** Copies the map and the set. */
  public ImportPlan {
    inner = Map.copyOf(inner);
    readInside = Set.copyOf(readInside);
  }

  /** The plan of a model's {@code order}ed nodes. */
  public static ImportPlan of(List<CheckedNode> nodes, List<CheckedNode> order) {
    Map<String, CheckedNode> byName = new HashMap<>();
    nodes.forEach(n -> byName.put(n.name(), n));
    Map<String, List<CheckedNode>> owned = new HashMap<>();
    Set<String> readInside = new HashSet<>();
    Set<String> taken = new HashSet<>();
    for (CheckedNode out : order) {
      if (out.spec().origin() == null || !out.spec().origin().output()) {
        continue;
      }
      Set<String> mine = new HashSet<>();
      List<String> stack = new ArrayList<>(List.of(out.name()));
      while (!stack.isEmpty()) {
        CheckedNode n = byName.get(stack.remove(stack.size() - 1));
        for (NodeSpec.Wire w : n.spec().wires()) {
          CheckedNode source = byName.get(w.source());
          if (source.spec().origin() != null) {
            readInside.add(source.name());
          }
          if (source.spec().importedInner() && taken.add(source.name())) {
            mine.add(source.name());
            stack.add(source.name());
          }
        }
      }
      owned.put(out.name(), order.stream().filter(n -> mine.contains(n.name())).toList());
    }
    return new ImportPlan(owned, readInside);
  }

  /** The inner nodes import output {@code output} emits, sources first; none for another node. */
  public List<CheckedNode> innerOf(String output) {
    return inner.getOrDefault(output, List.of());
  }
}
