package dev.kiln.runtime.infer;

import dev.kiln.ops.ConvKernels;
import dev.kiln.ops.file.SymbolEdit;
import dev.kiln.ops.file.SymbolFile;
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
    SymbolEdit edit = SymbolEdit.of(json);
    List<Move> moves = moves(edit.file());
    if (moves.isEmpty()) {
      return json;
    }
    for (Move m : moves) {
      // The pooling takes the ReLU's place (reading what the ReLU read) and the ReLU the
      // pooling's (reading the pooling): whatever read the pooling now reads the ReLU, and the
      // nodes stay in topological order.
      SymbolFile.Node act = edit.file().nodes().get(m.relu());
      edit.setInputs(m.pool(), act.inputs());
      edit.setInputs(m.relu(), List.of(new SymbolFile.Entry(m.relu(), 0)));
      edit.swap(m.relu(), m.pool());
    }
    return edit.toJson();
  }

  /** The names of the ReLUs {@link #apply} moves. */
  static List<String> moved(String json) {
    SymbolFile file = SymbolFile.parse(json);
    return moves(file).stream().map(m -> file.nodes().get(m.relu()).name()).toList();
  }

  /** A ReLU at position {@code relu} and the max pooling at {@code pool} that alone reads it. */
  private record Move(int relu, int pool) {}

  /**
   * The moves to make. No two share a node (a pooling reads one ReLU), and none changes what
   * decides another (a move's nodes are neither a GEMM convolution nor a batch norm), so they are
   * found on the symbol as read and made together.
   */
  private static List<Move> moves(SymbolFile file) {
    List<SymbolFile.Node> nodes = file.nodes();
    Set<Integer> heads = SymbolAttrs.headNodes(file);
    int[] readers = new int[nodes.size()];
    int[] reader = new int[nodes.size()];
    for (SymbolFile.Node n : nodes) {
      for (SymbolFile.Entry in : n.inputs()) {
        readers[in.node()]++;
        reader[in.node()] = n.id();
      }
    }
    List<Move> moves = new ArrayList<>();
    for (SymbolFile.Node act : nodes) {
      int a = act.id();
      if (!isRelu(act) || readers[a] != 1 || heads.contains(a)) {
        continue;
      }
      if (act.inputs().size() != 1 || !afterGemmConvolution(file, act.inputs().get(0).node())) {
        continue;
      }
      int q = reader[a];
      SymbolFile.Node pool = nodes.get(q);
      if (!isMaxPool(pool) || heads.contains(q)) {
        continue;
      }
      if (pool.inputs().size() != 1 || pool.inputs().get(0).node() != a) {
        continue;
      }
      moves.add(new Move(a, q));
    }
    return moves;
  }

  private static boolean isRelu(SymbolFile.Node n) {
    return n.op().equals("Activation") && "relu".equals(n.attrs().get("act_type"));
  }

  private static boolean isMaxPool(SymbolFile.Node n) {
    return n.op().equals("Pooling") && "max".equals(n.attrs().get("pool_type"));
  }

  /** Whether node {@code i} is a GEMM convolution or a batch norm reading one. */
  private static boolean afterGemmConvolution(SymbolFile file, int i) {
    SymbolFile.Node n = file.nodes().get(i);
    if (n.op().equals("BatchNorm")) {
      n = file.node(n.inputs().get(0));
    }
    if (!n.op().equals("Convolution")) {
      return false;
    }
    OptionalInt filters = ConvKernels.filters(n.attrs().get("num_filter"));
    return filters.isPresent() && !ConvKernels.blocked(filters.getAsInt());
  }
}
