package dev.kiln.processor;

import java.util.ArrayList;
import java.util.List;

/**
 * The model's layer table, as plain text for {@code summary()} and the model's Javadoc: node,
 * layer, MXNet operator, output shape, parameter count, and per example the forward FLOPs and
 * the output activation's size (see {@link Costs}), with totals. The parameter count is of learnable values
 * (auxiliary states such as moving averages are not counted); frozen nodes are marked.
 */
final class LayerTable {
  private LayerTable() {}

  static String render(CheckedModel m) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"node", "layer", "op", "output", "params", "flops/ex", "act/ex"});
    long total = 0;
    long flops = 0;
    boolean flopsKnown = true;
    long bytes = 0;
    for (NodeSpec n : m.spec().nodes()) {
      long count = m.paramCount(n.name());
      total += count;
      TShape out = m.shapes().get(n.name());
      long f = Costs.flops(n, n.wires().stream().map(w -> m.shapes().get(w.source())).toList(),
          out);
      flopsKnown &= f >= 0;
      flops += Math.max(0, f);
      long b = Costs.activationBytes(out);
      bytes += b;
      String layer = n.frozen() ? "@Frozen " + n.annotationText() : n.annotationText();
      rows.add(new String[] {n.name(), layer, n.layer().op(), out.toString(),
          Long.toString(count), Costs.human(f, ""), Costs.human(b, "B")});
    }
    rows.add(new String[] {"total", "", "", "", Long.toString(total),
        (flopsKnown ? "" : ">= ") + Costs.human(flops, ""), Costs.human(bytes, "B")});
    int[] widths = new int[7];
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        widths[i] = Math.max(widths[i], r[i].length());
      }
    }
    StringBuilder b = new StringBuilder();
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < 4; i++) {
        line.append(pad(r[i], widths[i])).append("  ");
      }
      for (int i = 4; i < 7; i++) {
        line.append(" ".repeat(widths[i] - r[i].length())).append(r[i]).append("  ");
      }
      b.append(line.toString().stripTrailing()).append('\n');
    }
    return b.toString();
  }

  private static String pad(String s, int width) {
    return s + " ".repeat(width - s.length());
  }
}
