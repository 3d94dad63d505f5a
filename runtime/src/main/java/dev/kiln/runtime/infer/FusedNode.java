package dev.kiln.runtime.infer;

import dev.kiln.ops.file.SymbolFile;
import java.util.ArrayList;
import java.util.List;

/**
 * One node that MXNet's oneDNN graph pass made out of several: its name and operator in the fused
 * symbol, and the operators and node names of the original graph it stands for.
 *
 * @param name the fused node's name, e.g. {@code sg_mkldnn_conv_bn_act_0}
 * @param op its operator, e.g. {@code _sg_mkldnn_conv}
 * @param ops the operators it runs, in order, e.g. {@code [Convolution, BatchNorm, Activation]}
 * @param nodes the names of the original nodes, in the same order
 */
public record FusedNode(String name, String op, List<String> ops, List<String> nodes) {
  /** The fused nodes of symbol {@code json}, in the symbol's order. */
  public static List<FusedNode> of(String json) {
    List<FusedNode> out = new ArrayList<>();
    for (SymbolFile.Node n : SymbolFile.parse(json).nodes()) {
      if (n.subgraphs().isEmpty()) {
        continue;
      }
      List<String> ops = new ArrayList<>();
      List<String> names = new ArrayList<>();
      n.subgraphs().forEach(g -> collect(g, ops, names));
      out.add(new FusedNode(n.name(), n.op(), List.copyOf(ops), List.copyOf(names)));
    }
    return List.copyOf(out);
  }

  /** The operators of {@code graph} and their nodes, those of nested subgraphs in their place. */
  private static void collect(SymbolFile graph, List<String> ops, List<String> names) {
    for (SymbolFile.Node n : graph.nodes()) {
      if (n.isVariable()) {
        continue;
      }
      if (!n.subgraphs().isEmpty()) {
        n.subgraphs().forEach(g -> collect(g, ops, names));
        continue;
      }
      ops.add(n.op());
      names.add(n.name());
    }
  }

  @Override
  public String toString() {
    return name + " (" + op + "): " + String.join(" + ", ops) + " of " + String.join(", ", nodes);
  }
}
