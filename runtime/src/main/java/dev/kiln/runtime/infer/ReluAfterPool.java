package dev.kiln.runtime.infer;

import static dev.kiln.runtime.infer.SymbolAttrs.attr;
import static dev.kiln.runtime.infer.SymbolAttrs.headNodes;
import static dev.kiln.runtime.infer.SymbolAttrs.inputNode;
import static dev.kiln.runtime.infer.SymbolAttrs.node;
import static dev.kiln.runtime.infer.SymbolAttrs.op;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.kiln.ops.ConvKernels;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Moves a ReLU that follows a GEMM convolution (and its batch norm) to after the max pooling that
 * follows it, in a symbol about to be fused for inference.
 *
 * <p>Why: MXNet 1.9.1's oneDNN pass fuses a convolution with the ReLU after it into one kernel.
 * Where oneDNN runs that convolution as a GEMM (every convolution whose filters do not fill whole
 * blocks of 16, {@link ConvKernels}), the GEMM convolution applies the fused ReLU so slowly that
 * the fused layer took 2.5–3.0 ms where the convolution alone took 0.6–2.2 (the sample's LeNet at
 * batch 64, {@code DNNL_VERBOSE}), and the fused LeNet ran slower than the unfused one. A ReLU and
 * a max pooling commute exactly ({@code max(relu(a), relu(b)) = relu(max(a, b))}), so the outputs
 * are the same to the bit; the convolution then fuses with its batch norm alone, and the ReLU runs
 * on the pooled values, a quarter as many for a 2x2 pool.
 *
 * <p>It runs after {@link ChannelPadding}, which gives most GEMM convolutions whole blocks of 16
 * filters (the LeNet's among them, whose ReLUs now fuse); what is left here are the convolutions
 * padding leaves alone, such as one of fewer than 8 filters.
 *
 * <p>Only a ReLU ({@code Activation} with {@code act_type} relu) whose input is such a convolution
 * or a batch norm of one, whose only reader is a {@code Pooling} with {@code pool_type} max, and
 * that is not an output, and such a pooling that is not an output, are moved.
 */
final class ReluAfterPool {
  private ReluAfterPool() {}

  /** {@code json} with every such ReLU moved after its pooling; {@code json} itself if none. */
  static String apply(String json) {
    JsonObject root = JsonParser.parseString(json).getAsJsonObject();
    List<String> moved = move(root);
    return moved.isEmpty() ? json : root.toString();
  }

  /** The names of the ReLUs {@link #apply} moves. */
  static List<String> moved(String json) {
    return move(JsonParser.parseString(json).getAsJsonObject());
  }

  private static List<String> move(JsonObject root) {
    JsonArray nodes = root.getAsJsonArray("nodes");
    Set<Integer> heads = headNodes(root);
    int[] readers = new int[nodes.size()];
    int[] reader = new int[nodes.size()];
    for (int i = 0; i < nodes.size(); i++) {
      for (JsonElement in : node(nodes, i).getAsJsonArray("inputs")) {
        int from = inputNode(in);
        readers[from]++;
        reader[from] = i;
      }
    }
    List<String> moved = new ArrayList<>();
    for (int a = 0; a < nodes.size(); a++) {
      JsonObject act = node(nodes, a);
      if (!isRelu(act) || readers[a] != 1 || heads.contains(a)) {
        continue;
      }
      JsonArray actInputs = act.getAsJsonArray("inputs");
      if (actInputs.size() != 1 || !afterGemmConvolution(nodes, inputNode(actInputs.get(0)))) {
        continue;
      }
      int q = reader[a];
      JsonObject pool = node(nodes, q);
      if (!isMaxPool(pool) || heads.contains(q)) {
        continue;
      }
      JsonArray poolInputs = pool.getAsJsonArray("inputs");
      if (poolInputs.size() != 1 || inputNode(poolInputs.get(0)) != a) {
        continue;
      }
      // The pooling takes the ReLU's place (reading what the ReLU read) and the ReLU the
      // pooling's (reading the pooling): whatever read the pooling now reads the ReLU, and the
      // nodes stay in topological order.
      pool.add("inputs", actInputs.deepCopy());
      JsonArray fromPool = new JsonArray();
      JsonArray entry = new JsonArray();
      entry.add(a);
      entry.add(0);
      entry.add(0);
      fromPool.add(entry);
      act.add("inputs", fromPool);
      nodes.set(a, pool);
      nodes.set(q, act);
      moved.add(act.get("name").getAsString());
    }
    return moved;
  }

  private static boolean isRelu(JsonObject n) {
    return op(n).equals("Activation") && "relu".equals(attr(n, "act_type"));
  }

  private static boolean isMaxPool(JsonObject n) {
    return op(n).equals("Pooling") && "max".equals(attr(n, "pool_type"));
  }

  /** Whether node {@code i} is a GEMM convolution or a batch norm reading one. */
  private static boolean afterGemmConvolution(JsonArray nodes, int i) {
    JsonObject n = node(nodes, i);
    if (op(n).equals("BatchNorm")) {
      n = node(nodes, inputNode(n.getAsJsonArray("inputs").get(0)));
    }
    if (!op(n).equals("Convolution")) {
      return false;
    }
    OptionalInt filters = ConvKernels.filters(attr(n, "num_filter"));
    return filters.isPresent() && !ConvKernels.blocked(filters.getAsInt());
  }
}
