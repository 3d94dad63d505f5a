package dev.kiln.processor;

import java.util.ArrayList;
import java.util.List;

/**
 * The model's layer table (node, layer, MXNet operator, output shape, parameter count), as
 * plain text for {@code summary()} and the model's Javadoc. The count is of learnable values
 * (auxiliary states such as moving averages are not counted); frozen nodes are marked.
 */
final class LayerTable {
  private LayerTable() {}

  static String render(CheckedModel m) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"node", "layer", "op", "output", "params"});
    long total = 0;
    for (NodeSpec n : m.spec().nodes()) {
      long count = m.paramCount(n.name());
      total += count;
      String layer = n.frozen() ? "@Frozen " + n.annotationText() : n.annotationText();
      rows.add(new String[] {n.name(), layer, n.layer().op(),
          m.shapes().get(n.name()).toString(), Long.toString(count)});
    }
    rows.add(new String[] {"total", "", "", "", Long.toString(total)});
    int[] widths = new int[5];
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
      line.append(" ".repeat(widths[4] - r[4].length())).append(r[4]);
      b.append(line.toString().stripTrailing()).append('\n');
    }
    return b.toString();
  }

  private static String pad(String s, int width) {
    return s + " ".repeat(width - s.length());
  }
}
