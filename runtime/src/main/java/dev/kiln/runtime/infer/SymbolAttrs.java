package dev.kiln.runtime.infer;

import dev.kiln.ops.file.SymbolEdit;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.ops.rule.Requirement;
import dev.kiln.runtime.graph.Dimensions;
import dev.kiln.runtime.graph.Shape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the inference passes read from a symbol's JSON (through {@link SymbolFile}), and the
 * input-shape and free-dimension attributes ({@link Predictor#SHAPE_ATTR}, {@link
 * Predictor#DIMS_ATTR}) they write into it (through {@link SymbolEdit}).
 */
final class SymbolAttrs {
  private SymbolAttrs() {}

  /** The nodes whose outputs are the symbol's outputs. */
  static Set<Integer> headNodes(SymbolFile symbol) {
    return Set.copyOf(symbol.heads().stream().map(SymbolFile.Entry::node).toList());
  }

  /**
   * {@code json} with each input's shape recorded on its variable node, and {@code dimensions} (if
   * any) on the first input's.
   */
  static String withShapes(String json, List<Port> inputs, Dimensions dimensions) {
    SymbolEdit edit = SymbolEdit.of(json);
    for (SymbolFile.Node n : edit.file().nodes()) {
      if (!n.isVariable()) {
        continue;
      }
      for (Port p : inputs) {
        if (p.name().equals(n.name())) {
          edit.setAttr(n.id(), Predictor.SHAPE_ATTR, p.shape().toMxnet());
          if (!dimensions.isEmpty() && p == inputs.get(0)) {
            edit.setAttr(n.id(), Predictor.DIMS_ATTR, writeDims(dimensions));
          }
        }
      }
    }
    return edit.toJson();
  }

  /** The free dimensions recorded in {@code json}; {@link Dimensions#NONE} when none is. */
  static Dimensions dimensions(String json) {
    for (SymbolFile.Node n : SymbolFile.parse(json).nodes()) {
      String dims = n.hidden().get(Predictor.DIMS_ATTR);
      if (n.isVariable() && dims != null) {
        return readDims(dims);
      }
    }
    return Dimensions.NONE;
  }

  /** {@link Predictor#DIMS_ATTR}'s text: a line per dimension, then per requirement. */
  static String writeDims(Dimensions dimensions) {
    List<String> lines = new ArrayList<>();
    for (Dimensions.Dim d : dimensions.dims()) {
      lines.add(String.join("\t", "dim", d.name(), Integer.toString(d.placeholder())));
    }
    for (Requirement r : dimensions.requirements()) {
      lines.add(String.join("\t", "require", r.text(), oneLine(r.node()), oneLine(r.why())));
    }
    return String.join("\n", lines);
  }

  private static String oneLine(String text) {
    return text.replaceAll("[\t\n\r]", " ");
  }

  /** Reads what {@link #writeDims} wrote. */
  static Dimensions readDims(String text) {
    List<Dimensions.Dim> dims = new ArrayList<>();
    List<String[]> requires = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] f = line.split("\t", -1);
      if (f[0].equals("dim") && f.length == 3) {
        dims.add(new Dimensions.Dim(f[1], Integer.parseInt(f[2].trim())));
      } else if (f[0].equals("require") && f.length == 4) {
        requires.add(f);
      } else {
        throw new IllegalArgumentException(
            Predictor.DIMS_ATTR
                + " holds '"
                + line
                + "'; expected dim<TAB>name<TAB>placeholder or"
                + " require<TAB>rule<TAB>node<TAB>why");
      }
    }
    Dimensions out = new Dimensions(dims, List.of());
    for (String[] r : requires) {
      out = out.require(r[1], r[2], r[3]);
    }
    return out;
  }

  /** The inputs recorded in {@code json}: variable name to shape, in node order. */
  static Map<String, Shape> shapes(String json) {
    Map<String, Shape> out = new LinkedHashMap<>();
    for (SymbolFile.Node n : SymbolFile.parse(json).nodes()) {
      String shape = n.hidden().get(Predictor.SHAPE_ATTR);
      if (n.isVariable() && shape != null) {
        out.put(n.name(), parse(shape));
      }
    }
    return out;
  }

  /** {@code (-1,1,28,28)} as a shape. */
  static Shape parse(String text) {
    String t = text.trim();
    if (!t.startsWith("(") || !t.endsWith(")")) {
      throw new IllegalArgumentException("not a shape: " + text);
    }
    List<Integer> dims = new ArrayList<>();
    for (String part : t.substring(1, t.length() - 1).split(",")) {
      if (!part.isBlank()) {
        dims.add(Integer.parseInt(part.trim()));
      }
    }
    return Shape.of(dims.stream().mapToInt(Integer::intValue).toArray());
  }

  /** The names of the symbol's outputs as MXNet lists them, without the {@code _output} suffix. */
  static List<String> headNames(String json) {
    SymbolFile symbol = SymbolFile.parse(json);
    return symbol.heads().stream().map(h -> symbol.node(h).name()).toList();
  }

  /** Every node's name, in the file's order. */
  static List<String> nodeNames(String json) {
    return SymbolFile.parse(json).nodes().stream().map(SymbolFile.Node::name).toList();
  }

  /** The names of the Pooling nodes with {@code global_pool} on and no {@code kernel}. */
  static List<String> globalPoolsWithoutKernel(String json) {
    List<String> out = new ArrayList<>();
    for (SymbolFile.Node n : SymbolFile.parse(json).nodes()) {
      if (!n.op().equals("Pooling")) {
        continue;
      }
      String global = n.attrs().getOrDefault("global_pool", "");
      String kernel = n.attrs().getOrDefault("kernel", "()");
      if (global.toLowerCase(Locale.ROOT).matches("true|1")
          && kernel.replaceAll("[()\\[\\]\\s,]", "").isEmpty()) {
        out.add(n.name());
      }
    }
    return out;
  }

  /**
   * The name of the first {@code elemwise_add} whose two inputs are one value (once the dropouts
   * that inference removes are skipped), or null. MXNet 1.9.1's oneDNN pass as DJL builds it ("fuse
   * FullyConnected with sum") crashes the process (SIGSEGV in {@code
   * std::vector<nnvm::NodeEntry>::operator=}) on such a sum when it binds for inference: measured
   * with {@code add(fc, fc)}, {@code add(dropout(fc), fc)} and {@code add(dropout(fc),
   * dropout(fc))}, and on the differential suite's seed 86.
   */
  static String selfAdd(String json) {
    SymbolFile symbol = SymbolFile.parse(json);
    for (SymbolFile.Node n : symbol.nodes()) {
      List<SymbolFile.Entry> in = n.inputs();
      if (n.op().equals("elemwise_add")
          && in.size() == 2
          && source(symbol, in.get(0)).equals(source(symbol, in.get(1)))) {
        return n.name();
      }
    }
    return null;
  }

  /** What {@code input} reads, through any dropouts. */
  private static SymbolFile.Entry source(SymbolFile symbol, SymbolFile.Entry input) {
    SymbolFile.Entry at = input;
    while (symbol.node(at).op().equals("Dropout") && at.index() == 0) {
      at = symbol.node(at).inputs().get(0);
    }
    return at;
  }
}
