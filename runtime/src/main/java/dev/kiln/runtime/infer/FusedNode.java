package dev.kiln.runtime.infer;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
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
    JsonArray nodes = JsonParser.parseString(json).getAsJsonObject().getAsJsonArray("nodes");
    for (JsonElement e : nodes) {
      JsonObject n = e.getAsJsonObject();
      if (!n.has("subgraphs")) {
        continue;
      }
      List<String> ops = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (JsonElement g : n.getAsJsonArray("subgraphs")) {
        collect(g.getAsJsonObject(), ops, names);
      }
      out.add(
          new FusedNode(
              n.get("name").getAsString(),
              n.get("op").getAsString(),
              List.copyOf(ops),
              List.copyOf(names)));
    }
    return List.copyOf(out);
  }

  private static void collect(JsonObject graph, List<String> ops, List<String> names) {
    for (JsonElement e : graph.getAsJsonArray("nodes")) {
      JsonObject n = e.getAsJsonObject();
      String op = n.get("op").getAsString();
      if (op.equals("null")) {
        continue;
      }
      if (n.has("subgraphs")) {
        for (JsonElement g : n.getAsJsonArray("subgraphs")) {
          collect(g.getAsJsonObject(), ops, names);
        }
        continue;
      }
      ops.add(op);
      names.add(n.get("name").getAsString());
    }
  }

  @Override
  public String toString() {
    return name + " (" + op + "): " + String.join(" + ", ops) + " of " + String.join(", ", nodes);
  }
}
