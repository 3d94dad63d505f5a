package dev.kiln.runtime.io;

import dev.kiln.ops.file.SymbolFile;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Compares the symbol stored in a checkpoint with a model's own, both read by {@link SymbolFile}:
 * the same operators, wired the same way, with the same attributes. What MXNet writes for its own
 * bookkeeping is ignored: the top-level {@code attrs} ({@code mxnet_version}, {@code is_np_shape}),
 * {@code arg_nodes} and {@code node_row_ptr} (both derived from the nodes), the version field of
 * each input entry, the order of the nodes (they are matched by name, so two topological orders of
 * one graph agree), the order of the outputs ({@code heads}; the model's own order is what its
 * {@code forward} returns) and every attribute MXNet hides from the operator ({@link
 * SymbolFile#isHidden}: {@code __name__}, which MXNet adds itself, such as {@code __init__} on a
 * BatchNorm's moving statistics, {@code __profiler_scope__}, and the {@code __shape__}, {@code
 * __dtype__}, {@code __lr_mult__} hints Python front ends attach, and MXNet's user attributes such
 * as {@code ctx_group}; none of them changes what the graph computes from its parameters).
 * Attribute values are MXNet strings and compare as MXNet parses them: spaces do not count, {@code
 * (3,3)} equals {@code [3, 3]}, {@code 0.001} equals {@code 1e-3}, and {@code True}, {@code true}
 * and {@code 1} are one boolean.
 */
final class SymbolCheck {
  /** Longest attribute value compared as a number. */
  private static final int MAX_NUMBER_CHARS = 64;

  /** An output of a node: the node's name and which of its outputs. */
  private record Output(String node, int output) {
    @Override
    public String toString() {
      return "'" + node + "'" + (output == 0 ? "" : " output " + output);
    }
  }

  private SymbolCheck() {}

  /**
   * The first way in which {@code file} differs from {@code model}, as a sentence naming the node
   * and what each has, or null if they are the same graph up to what MXNet adds.
   */
  static String firstDifference(SymbolFile file, SymbolFile model) {
    Map<String, SymbolFile.Node> inFile = byKey(file.nodes());
    Map<String, SymbolFile.Node> inModel = byKey(model.nodes());
    for (Map.Entry<String, SymbolFile.Node> e : inModel.entrySet()) {
      SymbolFile.Node m = e.getValue();
      SymbolFile.Node f = inFile.get(e.getKey());
      if (f == null) {
        return "the model's node '" + m.name() + "' (" + describe(m) + ") is not in the file";
      }
      String difference = nodeDifference(file, f, model, m);
      if (difference != null) {
        return "node '" + m.name() + "': " + difference;
      }
    }
    for (Map.Entry<String, SymbolFile.Node> e : inFile.entrySet()) {
      if (!inModel.containsKey(e.getKey())) {
        SymbolFile.Node f = e.getValue();
        return "the file has node '"
            + f.name()
            + "' ("
            + describe(f)
            + "), which the model does not have";
      }
    }
    List<Output> fileHeads = outputs(file, file.heads());
    List<Output> modelHeads = outputs(model, model.heads());
    if (!counts(fileHeads).equals(counts(modelHeads))) {
      return "the outputs are "
          + list(fileHeads)
          + " in the file, the model has "
          + list(modelHeads);
    }
    return null;
  }

  private static String describe(SymbolFile.Node n) {
    return n.isVariable() ? "a variable" : "operator " + n.op();
  }

  private static String nodeDifference(
      SymbolFile file, SymbolFile.Node f, SymbolFile model, SymbolFile.Node m) {
    if (!f.op().equals(m.op())) {
      return "the file has " + describe(f) + ", the model has " + describe(m);
    }
    TreeSet<String> keys = new TreeSet<>(f.attrs().keySet());
    keys.addAll(m.attrs().keySet());
    for (String key : keys) {
      String a = f.attrs().get(key);
      String b = m.attrs().get(key);
      if (a == null || b == null || !sameValue(a, b)) {
        return describe(m)
            + " attribute "
            + key
            + " is "
            + (a == null ? "not set" : a)
            + " in the file, the model "
            + (b == null ? "does not set it" : "has " + b);
      }
    }
    List<Output> fileInputs = outputs(file, f.inputs());
    List<Output> modelInputs = outputs(model, m.inputs());
    if (fileInputs.size() != modelInputs.size()) {
      return describe(m)
          + " has "
          + inputs(fileInputs.size())
          + " in the file ("
          + list(fileInputs)
          + "), the model has "
          + modelInputs.size()
          + " ("
          + list(modelInputs)
          + ")";
    }
    for (int i = 0; i < fileInputs.size(); i++) {
      if (!fileInputs.get(i).equals(modelInputs.get(i))) {
        return "input "
            + i
            + " is "
            + fileInputs.get(i)
            + " in the file, the model has "
            + modelInputs.get(i);
      }
    }
    return null;
  }

  /** {@code entries} of {@code symbol} as node names and output indices. */
  private static List<Output> outputs(SymbolFile symbol, List<SymbolFile.Entry> entries) {
    return entries.stream().map(e -> new Output(symbol.node(e).name(), e.index())).toList();
  }

  /**
   * Whether two MXNet attribute strings mean the same: equal once spaces are dropped, or both
   * tuples of equal elements, both numbers of equal value, or both the same boolean.
   */
  static boolean sameValue(String a, String b) {
    String x = a.replaceAll("\\s+", "");
    String y = b.replaceAll("\\s+", "");
    if (x.equals(y)) {
      return true;
    }
    List<String> tx = tuple(x);
    List<String> ty = tuple(y);
    if (tx != null && ty != null) {
      if (tx.size() != ty.size()) {
        return false;
      }
      for (int i = 0; i < tx.size(); i++) {
        if (!sameValue(tx.get(i), ty.get(i))) {
          return false;
        }
      }
      return true;
    }
    Boolean bx = bool(x);
    Boolean by = bool(y);
    if (bx != null && by != null) {
      return bx.equals(by);
    }
    BigDecimal nx = number(x);
    BigDecimal ny = number(y);
    return nx != null && ny != null && nx.compareTo(ny) == 0;
  }

  private static List<String> tuple(String v) {
    if (v.length() < 2) {
      return null;
    }
    char open = v.charAt(0);
    char close = v.charAt(v.length() - 1);
    if (!((open == '(' && close == ')') || (open == '[' && close == ']'))) {
      return null;
    }
    String inner = v.substring(1, v.length() - 1);
    if (inner.indexOf('(') >= 0 || inner.indexOf('[') >= 0) {
      return null;
    }
    List<String> parts = new ArrayList<>(List.of(inner.split(",", -1)));
    if (!parts.isEmpty() && parts.get(parts.size() - 1).isEmpty()) {
      parts.remove(parts.size() - 1);
    }
    return parts;
  }

  private static Boolean bool(String v) {
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true", "1" -> Boolean.TRUE;
      case "false", "0" -> Boolean.FALSE;
      default -> null;
    };
  }

  private static BigDecimal number(String v) {
    if (v.isEmpty() || v.length() > MAX_NUMBER_CHARS) {
      return null;
    }
    try {
      return new BigDecimal(v);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The nodes by name, the second of two equal names as {@code name#1}, and so on. */
  private static Map<String, SymbolFile.Node> byKey(List<SymbolFile.Node> nodes) {
    Map<String, SymbolFile.Node> out = new LinkedHashMap<>();
    Map<String, Integer> seen = new HashMap<>();
    for (SymbolFile.Node n : nodes) {
      int k = seen.merge(n.name(), 1, Integer::sum) - 1;
      out.put(k == 0 ? n.name() : n.name() + "#" + k, n);
    }
    return out;
  }

  private static Map<Output, Long> counts(List<Output> outputs) {
    return outputs.stream().collect(Collectors.groupingBy(e -> e, Collectors.counting()));
  }

  private static String list(List<Output> outputs) {
    return outputs.isEmpty()
        ? "none"
        : outputs.stream().map(Output::toString).collect(Collectors.joining(", "));
  }

  private static String inputs(int n) {
    return n + (n == 1 ? " input" : " inputs");
  }
}
