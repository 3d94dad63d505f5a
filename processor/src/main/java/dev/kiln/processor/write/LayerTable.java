package dev.kiln.processor.write;

import dev.kiln.ops.rule.Requirement;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.FreeDimSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The model's layer table, as plain text for the model class's Javadoc and its {@code SUMMARY}: per
 * node its name, its layer as written with the MXNet operator it emits on the line below, its
 * output shape, parameter count and, per example, forward FLOPs and the output activation's size,
 * with totals. The parameter count is of learnable values (auxiliary states such as moving averages
 * are not counted).
 *
 * <p>The table is at most {@link #WIDTH} columns wide, so that it fits in 100 columns both in the
 * Javadoc (after {@code " * "}, and with a line's leading {@code @} escaped as {@code &#64;}) and
 * in the {@code SUMMARY} text block (indented by 6): a long layer wraps within its column, a node
 * name too long for its column gets a line of its own, and when the figures leave too little room
 * for the layers, each node's layer goes on the lines below its figures instead.
 */
public final class LayerTable {
  /** The widest a line of the table may be. */
  static final int WIDTH = 92;

  private static final int GAP = 2;
  private static final int NODE_MAX = 16;
  private static final int OUTPUT_MAX = 24;
  private static final int LAYER_MIN = 30;
  private static final String DECLARED = "*";

  private LayerTable() {}

  /** One row: the cells of one node, or of the header or the totals. */
  private record Row(
      String node,
      String layer,
      String op,
      String output,
      String params,
      String flops,
      String bytes) {}

  /** The widths of the columns; {@code layer} is 0 when layers go below the figures. */
  private record Widths(int node, int layer, int output, int params, int flops, int bytes) {}

  /** The table of {@code m}, one line per row, each ending in a newline. */
  public static String render(CheckedModel m) {
    List<Row> rows = new ArrayList<>();
    rows.add(new Row("node", "layer / MXNet op", "", "output", "params", "flops/ex", "act/ex"));
    for (CheckedNode n : m.nodes()) {
      boolean declared = n.spec().layer().tracedAtBuild();
      rows.add(
          new Row(
              n.name(),
              n.spec().layerText(),
              n.spec().layer().mxnetOp(),
              n.shape() + (declared ? DECLARED : ""),
              Long.toString(n.paramCount()),
              human(n.flops(), ""),
              human(n.activationBytes(), "B")));
    }
    rows.add(
        new Row(
            "total",
            "",
            "",
            "",
            Long.toString(m.paramCount()),
            (m.flopsKnown() ? "" : ">= ") + human(m.knownFlops(), ""),
            human(m.activationBytes(), "B")));

    Widths w = widths(rows);
    StringBuilder b = new StringBuilder();
    for (Row r : rows) {
      List<String> layers = new ArrayList<>();
      if (!r.layer().isEmpty()) {
        layers.addAll(wrap(r.layer(), w.layer() > 0 ? w.layer() : WIDTH - 2, "    "));
      }
      if (!r.op().isEmpty()) {
        for (String line : wrap(r.op(), (w.layer() > 0 ? w.layer() : WIDTH - 2) - 2, "  ")) {
          layers.add("  " + line);
        }
      }
      List<String> outputs = wrap(r.output(), w.output(), " ");
      String name = r.node();
      if (name.length() > w.node()) {
        b.append(name).append('\n');
        name = "";
      }
      int lines = w.layer() > 0 ? Math.max(layers.size(), outputs.size()) : outputs.size();
      for (int i = 0; i < lines; i++) {
        StringBuilder line = new StringBuilder(left(i == 0 ? name : "", w.node() + GAP));
        if (w.layer() > 0) {
          line.append(left(i < layers.size() ? layers.get(i) : "", w.layer() + GAP));
        }
        line.append(left(i < outputs.size() ? outputs.get(i) : "", w.output() + GAP));
        if (i == 0) {
          line.append(right(r.params(), w.params()))
              .append(" ".repeat(GAP))
              .append(right(r.flops(), w.flops()))
              .append(" ".repeat(GAP))
              .append(right(r.bytes(), w.bytes()));
        }
        b.append(line.toString().stripTrailing()).append('\n');
      }
      if (w.layer() == 0) {
        for (String line : layers) {
          b.append("  ").append(line).append('\n');
        }
      }
    }
    if (!m.spec().dims().isEmpty()) {
      String names = String.join(", ", m.spec().dims().stream().map(FreeDimSpec::name).toList());
      for (String line :
          wrap(
              "free dimensions "
                  + names
                  + " (the per-example figures count each free size as 1); the model needs:",
              WIDTH,
              "  ")) {
        b.append(line).append('\n');
      }
      for (Requirement r : m.requirements()) {
        String why = (r.node().isEmpty() ? "declared: " : r.node() + ": ") + r.why();
        for (String line : wrap(r.text() + "  " + why, WIDTH - 2, "    ")) {
          b.append("  ").append(line).append('\n');
        }
      }
    }
    if (m.hasTracedNodes()) {
      b.append(DECLARED)
          .append(
              " declared by the custom layer; its forward body is traced and "
                  + "checked when the graph is built\n");
    }
    return b.toString();
  }

  /** Column widths fitting the rows within {@link #WIDTH}. */
  private static Widths widths(List<Row> rows) {
    int node = 0;
    int output = 0;
    int params = 0;
    int flops = 0;
    int bytes = 0;
    int layer = 0;
    for (Row r : rows) {
      node = Math.max(node, r.node().length());
      output = Math.max(output, Math.min(OUTPUT_MAX, r.output().length()));
      params = Math.max(params, r.params().length());
      flops = Math.max(flops, r.flops().length());
      bytes = Math.max(bytes, r.bytes().length());
      layer = Math.max(layer, Math.max(r.layer().length(), 2 + r.op().length()));
    }
    int figures = output + params + flops + bytes + 4 * GAP;
    int columns = Math.min(node, NODE_MAX) + GAP + figures;
    if (WIDTH - columns - GAP >= Math.min(layer, LAYER_MIN)) {
      return new Widths(
          Math.min(node, NODE_MAX),
          Math.min(layer, WIDTH - columns - GAP),
          output,
          params,
          flops,
          bytes);
    }
    return new Widths(Math.min(node, WIDTH - figures - GAP), 0, output, params, flops, bytes);
  }

  /**
   * {@code text} in lines of at most {@code width}, broken after a {@code ", "} or at a space where
   * possible, continuation lines starting with {@code indent}.
   */
  private static List<String> wrap(String text, int width, String indent) {
    List<String> lines = new ArrayList<>();
    String rest = text;
    while (rest.length() > width) {
      int comma = rest.lastIndexOf(", ", width - 1);
      int space = rest.lastIndexOf(' ', width);
      int cut = comma > indent.length() ? comma + 1 : space > indent.length() ? space : width;
      lines.add(rest.substring(0, cut).stripTrailing());
      rest = indent + rest.substring(cut).stripLeading();
    }
    lines.add(rest);
    return lines;
  }

  private static String left(String s, int width) {
    return s + " ".repeat(Math.max(0, width - s.length()));
  }

  private static String right(String s, int width) {
    return " ".repeat(Math.max(0, width - s.length())) + s;
  }

  /** {@code 1.2 M}, {@code 35.0 K}, {@code 512}: FLOPs or bytes; {@code ?} when unknown. */
  static String human(long v, String unit) {
    if (v < 0) {
      return "?";
    }
    if (v >= 10_000_000) {
      return String.format(Locale.ROOT, "%.1f M%s", v / 1e6, unit);
    }
    if (v >= 10_000) {
      return String.format(Locale.ROOT, "%.1f K%s", v / 1e3, unit);
    }
    return v + (unit.isEmpty() ? "" : " " + unit);
  }
}
