package dev.kiln.processor.read;

import dev.kiln.annotations.Imported;
import dev.kiln.ops.FileOps;
import dev.kiln.ops.Op;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.diag.Spelling;
import dev.kiln.processor.model.ImportedFrom;
import dev.kiln.processor.model.NodeSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/**
 * Reads an {@code @Imported} node: finds the symbol file, cuts its graph at the requested output,
 * binds the method's parameters to the file's inputs and expands every file node the output needs
 * into one node of the model, with the op unit of the built-in layer it is ({@link FileOps}). Each
 * mistake is one error on the method: the file missing or not a symbol, an operator or attribute
 * Kiln cannot import, an input or output the file does not have.
 */
public final class ImportReader {
  private final Report report;
  private final SymbolSource files;

  /** A reader that finds files with {@code files} and reports to {@code report}. */
  public ImportReader(Report report, SymbolSource files) {
    this.report = report;
    this.files = files;
  }

  /** Whether {@code mirror} is {@code @Imported}. */
  public static boolean isImport(AnnotationMirror mirror) {
    TypeElement t = (TypeElement) mirror.getAnnotationType().asElement();
    return t.getQualifiedName().contentEquals(Imported.class.getCanonicalName());
  }

  /**
   * What the method declared: where it is and how it reads.
   *
   * @param model the model's simple name
   * @param pkg the model's package
   * @param name the method's name, which the import's output takes
   * @param method the {@code @Imported} method (diagnostics point here; null outside a compiler)
   * @param mirror its {@code @Imported}
   * @param symbol the annotation's {@code symbol}
   * @param output the annotation's {@code output}, empty for the file's one output
   * @param wires the method's parameters
   * @param markedOutput whether the method is also {@code @Output}
   * @param frozen its {@code @Frozen}, or null
   * @param taken the names of the model's other nodes
   * @param onnx whether {@code symbol} is an ONNX model ({@code @Imported(onnx = ...)})
   */
  public record Declared(
      String model,
      String pkg,
      String name,
      ExecutableElement method,
      AnnotationMirror mirror,
      String symbol,
      String output,
      List<NodeSpec.Wire> wires,
      boolean markedOutput,
      AnnotationMirror frozen,
      Set<String> taken,
      boolean onnx) {
    /** This import, with {@code names} taken by the model's other nodes. */
    public Declared withTaken(Set<String> names) {
      return new Declared(
          model,
          pkg,
          name,
          method,
          mirror,
          symbol,
          output,
          wires,
          markedOutput,
          frozen,
          names,
          onnx);
    }

    /** {@code Net.features()}. */
    String where() {
      return model + "." + name() + "()";
    }
  }

  /**
   * The nodes of the imports {@code group}, which read the same file with the same parameters (so
   * share its nodes), by the method each is placed under: the nodes of each method's output that an
   * earlier method did not already take, sources before readers, the output last; null when an
   * error was reported.
   */
  public Map<String, List<NodeSpec>> read(List<Declared> group) {
    Declared d = group.get(0);
    String text;
    try {
      text = files.read(d.symbol(), d.pkg());
    } catch (SymbolSource.NotFound e) {
      String resource = SymbolSource.resolve(d.symbol(), d.pkg());
      int slash = resource.lastIndexOf('/');
      fail(
          d,
          "symbol",
          Message.IMPORT_NOT_FOUND,
          d.where(),
          d.symbol(),
          slash < 0 ? "" : "/" + resource.substring(0, slash),
          d.model() + ".java",
          resource,
          list(e.lookedIn));
      return null;
    }
    SymbolFile file;
    try {
      file = SymbolFile.parse(text).namedApart();
    } catch (IllegalArgumentException e) {
      fail(d, "symbol", Message.IMPORT_NOT_SYMBOL, d.where(), d.symbol(), e.getMessage());
      return null;
    }
    return new Expansion(group, file).nodes();
  }

  private void fail(Declared d, String attribute, Message m, Object... args) {
    report.add(m, d.method(), d.mirror(), attribute, args);
  }

  /** The imports of one file being expanded. */
  private final class Expansion {
    private final List<Declared> group;
    private final SymbolFile file;
    private final Map<Integer, FileOps.Mapped> mapped = new TreeMap<>();
    private final Map<Integer, Map<String, String>> names = new LinkedHashMap<>();
    private final Set<Integer> needed = new LinkedHashSet<>();
    private final Set<Integer> inputs = new LinkedHashSet<>();

    /** The imports' outputs by entry (see {@link #key}). */
    private final Map<Long, Declared> outputs = new LinkedHashMap<>();

    private final Map<Long, Set<Long>> ancestries = new HashMap<>();

    Expansion(List<Declared> group, SymbolFile file) {
      this.group = group;
      this.file = file;
    }

    Map<String, List<NodeSpec>> nodes() {
      for (Declared d : group) {
        Long out = output(d);
        if (out == null) {
          return null;
        }
        Declared other = outputs.putIfAbsent(out, d);
        if (other != null) {
          fail(
              d,
              "output",
              Message.IMPORT_NAME_TAKEN,
              d.where(),
              d.output(),
              d.symbol(),
              d.model(),
              "import " + other.name() + "(), whose output it is too");
          return null;
        }
        if (!visit(d, file.nodes().get(id(out)))) {
          return null;
        }
      }
      Declared first = group.get(0);
      Map<String, NodeSpec.Wire> fed = bind(first);
      if (fed == null) {
        return null;
      }
      Map<String, List<NodeSpec>> byMethod = new LinkedHashMap<>();
      Set<Long> placed = new HashSet<>();
      for (Declared d : group) {
        List<NodeSpec> nodes = new ArrayList<>();
        for (long entry : ancestry(outputId(d))) {
          if (!placed.add(entry)) {
            continue;
          }
          NodeSpec node = node(entry, fed);
          if (node == null) {
            return null;
          }
          nodes.add(node);
        }
        byMethod.put(d.name(), nodes);
      }
      return byMethod;
    }

    /**
     * Entry {@code entry} of the file (a node, or one output of a node of several) as a node of the
     * model; null when an error was reported.
     */
    private NodeSpec node(long entry, Map<String, NodeSpec.Wire> fed) {
      int id = id(entry);
      SymbolFile.Node n = file.nodes().get(id);
      Declared out = outputs.get(entry);
      Declared d = out != null ? out : owner(entry);
      String name = kilnName(entry);
      if (out == null && d.taken().contains(name)) {
        fail(
            d,
            null,
            Message.IMPORT_NAME_TAKEN,
            d.where(),
            name,
            d.symbol(),
            d.model(),
            "node " + name + "()");
        return null;
      }
      FileOps.Mapped m = mapped.get(id);
      Op op = m.op();
      if (!m.outputs().isEmpty() || index(entry) > 0) {
        if (index(entry) >= m.outputs().size()) {
          fail(
              d,
              "symbol",
              Message.IMPORT_NOT_SYMBOL,
              d.where(),
              d.symbol(),
              "output "
                  + index(entry)
                  + " of node "
                  + n.name()
                  + " ("
                  + n.op()
                  + ") is read, but Kiln imports "
                  + (m.outputs().isEmpty()
                      ? "only its first output"
                      : "its " + m.outputs().size() + " outputs"));
          return null;
        }
        op = m.outputs().get(index(entry));
      }
      List<NodeSpec.Wire> wires = new ArrayList<>();
      for (int i = 0; i < m.args().size() && i < n.inputs().size(); i++) {
        if (m.args().get(i).kind() != FileOps.Kind.DATA) {
          continue;
        }
        SymbolFile.Entry e = n.inputs().get(i);
        SymbolFile.Node source = file.node(e);
        String sourceName = source.isVariable() ? null : kilnName(key(e.node(), e.index()));
        wires.add(
            source.isVariable()
                ? fed.get(source.name())
                : new NodeSpec.Wire(sourceName, sourceName, null));
      }
      String text = text(n);
      String fileName = m.outputs().isEmpty() ? n.name() : n.name() + "_output" + index(entry);
      // The file node's name: each output of a node of several breaks its rules alike.
      String where = d.where() + " " + n.name();
      try {
        op.checkAttributes(new AttributeSite(name, where, text));
      } catch (RuleError e) {
        report.add(e.message, d.method(), d.mirror(), null, e.args);
        return null;
      }
      boolean isOut = out != null;
      ImportedFrom origin =
          new ImportedFrom(
              d.symbol(),
              d.name(),
              n.name(),
              fileName,
              names.get(id),
              isOut ? d.wires() : List.of(),
              isOut,
              isOut ? cutAway() : List.of(),
              false,
              false,
              Map.of(),
              hints(names.get(id).values()));
      AnnotationMirror frozen =
          group.stream()
              .filter(g -> g.frozen() != null && ancestry(outputId(g)).contains(entry))
              .map(Declared::frozen)
              .findFirst()
              .orElse(null);
      return new NodeSpec(
          name,
          op,
          wires,
          d.method(),
          d.mirror(),
          isOut ? imported(d) + " " + fileName + ": " + text : text,
          isOut && d.markedOutput(),
          frozen,
          origin);
    }

    /**
     * The shapes that the file's variables named {@code variables} declare ({@code __shape__}, as
     * Gluon's export writes them), by name; a hint that is no tuple of integers is left out.
     */
    private Map<String, List<Integer>> hints(java.util.Collection<String> variables) {
      Map<String, List<Integer>> out = new LinkedHashMap<>();
      for (String v : variables) {
        SymbolFile.Node node = file.node(v);
        String hint = node == null || !node.isVariable() ? null : node.hidden().get("__shape__");
        if (hint == null) {
          continue;
        }
        List<Integer> dims = new ArrayList<>();
        try {
          for (String part : hint.replaceAll("[()\\[\\]\\s]", "").split(",")) {
            if (!part.isEmpty()) {
              dims.add(Integer.parseInt(part));
            }
          }
        } catch (NumberFormatException e) {
          continue;
        }
        out.put(v, dims);
      }
      return out;
    }

    /**
     * The model's name of entry {@code entry}: the method's for an import's output, {@code
     * <node>_output<i>} (MXNet's own name for it) for output {@code i} of a node of several, else
     * the file node's.
     */
    private String kilnName(long entry) {
      Declared out = outputs.get(entry);
      if (out != null) {
        return out.name();
      }
      SymbolFile.Node n = file.nodes().get(id(entry));
      FileOps.Mapped m = mapped.get(n.id());
      boolean several = (m != null && !m.outputs().isEmpty()) || index(entry) > 0;
      return several ? n.name() + "_output" + index(entry) : n.name();
    }

    /** The first import (in declaration order) whose output needs entry {@code entry}. */
    private Declared owner(long entry) {
      for (Declared d : group) {
        if (ancestry(outputId(d)).contains(entry)) {
          return d;
        }
      }
      return group.get(0);
    }

    private long outputId(Declared d) {
      return outputs.entrySet().stream()
          .filter(e -> e.getValue() == d)
          .findFirst()
          .orElseThrow()
          .getKey();
    }

    /** Entry {@code out} and every entry it reads, in the file's order; computed once per entry. */
    private Set<Long> ancestry(long out) {
      return ancestries.computeIfAbsent(out, this::reads);
    }

    private Set<Long> reads(long out) {
      Set<Long> seen = new TreeSet<>();
      List<Long> stack = new ArrayList<>(List.of(out));
      while (!stack.isEmpty()) {
        long entry = stack.remove(stack.size() - 1);
        if (!seen.add(entry)) {
          continue;
        }
        SymbolFile.Node n = file.nodes().get(id(entry));
        List<FileOps.Arg> args = mapped.get(n.id()).args();
        for (int i = 0; i < args.size() && i < n.inputs().size(); i++) {
          SymbolFile.Entry e = n.inputs().get(i);
          if (args.get(i).kind() == FileOps.Kind.DATA && !file.node(e).isVariable()) {
            stack.add(key(e.node(), e.index()));
          }
        }
      }
      return seen;
    }

    /**
     * The entry the import's output is (see {@link #key}), or null when reported: a node's name, or
     * {@code <node>_output<i>} for output {@code i} of a node of several.
     */
    private Long output(Declared d) {
      if (d.output().isEmpty()) {
        if (file.heads().size() == 1) {
          SymbolFile.Entry head = file.heads().get(0);
          if (!file.node(head).isVariable()) {
            return key(head.node(), head.index());
          }
        }
        List<String> heads = file.heads().stream().map(h -> file.node(h).name()).toList();
        fail(
            d,
            "symbol",
            Message.IMPORT_SEVERAL_OUTPUTS,
            d.where(),
            d.symbol(),
            heads.size(),
            String.join(", ", heads),
            d.symbol(),
            heads.get(0));
        return null;
      }
      String wanted = d.output();
      SymbolFile.Node n = file.node(wanted);
      int index = 0;
      java.util.regex.Matcher output =
          java.util.regex.Pattern.compile("(.+)_output(\\d*)").matcher(wanted);
      if (n == null && output.matches()) {
        n = file.node(output.group(1));
        index = output.group(2).isEmpty() ? 0 : Integer.parseInt(output.group(2));
      }
      if (n != null && !n.isVariable()) {
        return key(n.id(), index);
      }
      List<String> ops =
          file.nodes().stream().filter(x -> !x.isVariable()).map(SymbolFile.Node::name).toList();
      String variable = n != null ? ", but a variable (an input or a parameter)" : "";
      String close = n != null ? null : Spelling.closest(wanted, ops);
      String hint = close == null ? "" : "; did you mean '" + close + "'?";
      List<String> heads = file.heads().stream().map(h -> file.node(h).name()).toList();
      fail(
          d,
          "output",
          Message.IMPORT_UNKNOWN_OUTPUT,
          d.where(),
          wanted,
          d.symbol(),
          variable,
          summary(ops, heads),
          hint);
      return null;
    }

    /**
     * Maps {@code n} and, first, everything it reads; false when an error was reported. Variables
     * read as data become the import's inputs.
     */
    private boolean visit(Declared d, SymbolFile.Node root) {
      List<SymbolFile.Node> stack = new ArrayList<>(List.of(root));
      Set<Integer> seen = new LinkedHashSet<>();
      while (!stack.isEmpty()) {
        SymbolFile.Node n = stack.remove(stack.size() - 1);
        if (mapped.containsKey(n.id()) || !seen.add(n.id())) {
          continue;
        }
        if (!FileOps.known(n.op())) {
          fail(
              d,
              "symbol",
              Message.IMPORT_UNKNOWN_OP,
              d.where(),
              n.name(),
              d.symbol(),
              n.op(),
              String.join(", ", FileOps.current()),
              String.join(", ", FileOps.older()));
          return false;
        }
        FileOps.Mapped m;
        try {
          m = FileOps.map(d.where() + " " + n.name(), n.op(), n.attrs());
        } catch (RuleError e) {
          report.add(e.message, d.method(), d.mirror(), "symbol", e.args);
          return false;
        }
        if (n.inputs().size() > m.args().size()) {
          fail(
              d,
              "symbol",
              Message.IMPORT_NOT_SYMBOL,
              d.where(),
              d.symbol(),
              "node "
                  + n.name()
                  + " ("
                  + n.op()
                  + ") has "
                  + n.inputs().size()
                  + " inputs, but "
                  + n.op()
                  + " with its attributes takes "
                  + m.args().size());
          return false;
        }
        Map<String, String> roles = new LinkedHashMap<>();
        for (int i = 0; i < m.args().size(); i++) {
          FileOps.Arg arg = m.args().get(i);
          if (i >= n.inputs().size()) {
            if (arg.kind() == FileOps.Kind.DATA) {
              fail(
                  d,
                  "symbol",
                  Message.IMPORT_NOT_SYMBOL,
                  d.where(),
                  d.symbol(),
                  "node "
                      + n.name()
                      + " ("
                      + n.op()
                      + ") has "
                      + n.inputs().size()
                      + " inputs, too few for "
                      + n.op());
              return false;
            }
            // MXNet before 0.9 saved no auxiliary states; its loader names them <node>_<role>.
            if (arg.role() != null) {
              roles.put(arg.role(), n.name() + "_" + arg.role());
            }
            continue;
          }
          SymbolFile.Entry e = n.inputs().get(i);
          SymbolFile.Node source = file.node(e);
          switch (arg.kind()) {
            case DATA -> {
              if (source.isVariable()) {
                inputs.add(source.id());
              } else {
                stack.add(source);
              }
            }
            case PARAM, AUX -> {
              if (!source.isVariable()) {
                fail(
                    d,
                    "symbol",
                    Message.IMPORT_NOT_SYMBOL,
                    d.where(),
                    d.symbol(),
                    "the "
                        + arg.role()
                        + " of node "
                        + n.name()
                        + " is computed by node "
                        + source.name()
                        + "; Kiln imports parameters that are variables");
                return false;
              }
              roles.put(arg.role(), source.name());
            }
            case LABEL -> {
              // Kiln's training feeds its own label.
            }
            case STATE -> {
              // A variable (fed zeros) or MXNet's zeros, as the Module API's begin_state makes.
              if (!source.isVariable() && !source.op().equals("_zeros")) {
                fail(
                    d,
                    "symbol",
                    Message.IMPORT_NOT_SYMBOL,
                    d.where(),
                    d.symbol(),
                    "the initial state of node "
                        + n.name()
                        + " is computed by node "
                        + source.name()
                        + " ("
                        + source.op()
                        + "); Kiln starts a recurrent layer from zeros, as a state variable fed "
                        + "zeros or a _zeros node does");
                return false;
              }
            }
          }
        }
        mapped.put(n.id(), m);
        names.put(n.id(), roles);
      }
      needed.addAll(seen);
      return true;
    }

    /**
     * The model wire that feeds each of the import's inputs, by the file's name for it; null when
     * an error was reported.
     */
    private Map<String, NodeSpec.Wire> bind(Declared d) {
      Map<String, SymbolFile.Node> byParameter = new LinkedHashMap<>();
      for (int id : inputs) {
        SymbolFile.Node v = file.nodes().get(id);
        byParameter.put(identifier(v.name()), v);
      }
      Map<String, NodeSpec.Wire> fed = new LinkedHashMap<>();
      for (NodeSpec.Wire w : d.wires()) {
        SymbolFile.Node v = byParameter.get(w.parameterName());
        if (v == null) {
          String close = Spelling.closest(w.parameterName(), byParameter.keySet());
          report.add(
              Message.IMPORT_UNKNOWN_INPUT,
              w.parameter(),
              d.where(),
              w.parameterName(),
              w.parameterName(),
              d.symbol() + (d.output().isEmpty() ? "" : " up to " + d.output()),
              byParameter.isEmpty() ? "none" : String.join(", ", byParameter.keySet()),
              close == null ? "" : "; did you mean '" + close + "'?");
          return null;
        }
        fed.put(v.name(), w);
      }
      for (Map.Entry<String, SymbolFile.Node> e : byParameter.entrySet()) {
        if (!fed.containsKey(e.getValue().name())) {
          String reader = readerOf(e.getValue().id());
          fail(
              d,
              null,
              Message.IMPORT_UNFED_INPUT,
              d.where(),
              "node " + reader,
              e.getValue().name(),
              d.symbol(),
              e.getKey());
          return null;
        }
      }
      return fed;
    }

    /**
     * The names of the file's arrays that are none of the imported nodes': its variables but those
     * the imported nodes read as parameters, and the moving averages MXNet before 0.9 kept out of
     * the file, of its batch norms the import cut away.
     */
    private List<String> cutAway() {
      Set<String> kept = new LinkedHashSet<>();
      names.values().forEach(m -> kept.addAll(m.values()));
      Set<String> out = new LinkedHashSet<>();
      for (SymbolFile.Node n : file.nodes()) {
        if (n.isVariable()) {
          out.add(n.name());
        } else if (n.op().equals("BatchNorm") && !needed.contains(n.id())) {
          out.add(n.name() + "_moving_mean");
          out.add(n.name() + "_moving_var");
        }
      }
      out.removeAll(kept);
      return List.copyOf(out);
    }

    /** The first needed node that reads variable {@code id}. */
    private String readerOf(int id) {
      for (int n : needed) {
        if (file.nodes().get(n).inputs().stream().anyMatch(e -> e.node() == id)) {
          return file.nodes().get(n).name();
        }
      }
      return "?";
    }
  }

  /**
   * {@code name} as a Java identifier: every character that cannot be in one an underscore, and an
   * underscore first where the first cannot start one.
   */
  static String identifier(String name) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      b.append(
          i == 0
              ? (Character.isJavaIdentifierStart(c)
                  ? c
                  : Character.isJavaIdentifierPart(c) ? "_" + c : "_")
              : Character.isJavaIdentifierPart(c) ? c : '_');
    }
    String id = b.toString();
    return javax.lang.model.SourceVersion.isKeyword(id) ? id + "_" : id;
  }

  /** {@code @Imported(symbol = "lenet-symbol.json")}, as the table shows the import's output. */
  private static String imported(Declared d) {
    return "@Imported(symbol = \""
        + d.symbol()
        + "\""
        + (d.output().isEmpty() ? "" : ", output = \"" + d.output() + "\"")
        + ")";
  }

  /** {@code Convolution(kernel=(5, 5), num_filter=20)}: a file node as the file writes it. */
  static String text(SymbolFile.Node n) {
    if (n.attrs().isEmpty()) {
      return n.op();
    }
    return n.op()
        + n.attrs().entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(", ", "(", ")"));
  }

  /**
   * {@code nodes} with each import's output that only the nodes of its file read (it is an earlier
   * cut of a file another import reads on) marked as an output of the model, which it stays.
   */
  static List<NodeSpec> outputsKept(List<NodeSpec> nodes) {
    Set<String> readByModel = new HashSet<>();
    Set<String> readByFile = new HashSet<>();
    for (NodeSpec n : nodes) {
      for (NodeSpec.Wire w : n.wires()) {
        (n.origin() == null ? readByModel : readByFile).add(w.source());
      }
    }
    return nodes.stream()
        .map(
            n ->
                n.origin() != null
                        && n.origin().output()
                        && readByFile.contains(n.name())
                        && !readByModel.contains(n.name())
                    ? new NodeSpec(
                        n.name(),
                        n.layer(),
                        n.wires(),
                        n.method(),
                        n.mirror(),
                        n.annotationText(),
                        true,
                        n.frozenMirror(),
                        n.origin())
                    : n)
        .toList();
  }

  /** The key of output {@code index} of file node {@code id}: one node of the model. */
  static long key(int id, int index) {
    return ((long) id << 16) | index;
  }

  /** The file node of entry {@code key}. */
  static int id(long key) {
    return (int) (key >> 16);
  }

  /** The output of entry {@code key}. */
  static int index(long key) {
    return (int) (key & 0xFFFF);
  }

  /** {@code a}, {@code a and b}, {@code a, b and c}. */
  static String list(List<String> items) {
    int n = items.size();
    return n <= 1
        ? String.join("", items)
        : String.join(", ", items.subList(0, n - 1)) + " and " + items.get(n - 1);
  }

  /** The file's outputs and, when they are few, the other nodes, for a message. */
  private static String summary(List<String> ops, List<String> heads) {
    List<String> shown = new ArrayList<>(heads);
    for (int i = ops.size() - 1; i >= 0 && shown.size() < 8; i--) {
      if (!shown.contains(ops.get(i))) {
        shown.add(ops.get(i));
      }
    }
    String list = String.join(", ", shown);
    return ops.size() > shown.size()
        ? list + " and " + (ops.size() - shown.size()) + " more"
        : list;
  }
}
