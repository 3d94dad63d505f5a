package dev.kiln.processor.read;

import dev.kiln.onnx.OnnxFile;
import dev.kiln.onnx.OnnxFormatException;
import dev.kiln.onnx.OnnxGraph;
import dev.kiln.onnx.OnnxImport;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.ops.InputOp;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.diag.Spelling;
import dev.kiln.processor.model.FreeDimSpec;
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

/**
 * Reads an {@code @Imported(onnx = ...)} node: finds the ONNX file, makes it into Kiln's units
 * ({@link OnnxImport}), cuts the graph at the requested output, binds the method's parameters to
 * the file's inputs and gives every Kiln node the file needs up to there a node of the model. Each
 * mistake is one error on the annotation: the file missing or not an ONNX model, the operators Kiln
 * does not import (all at once), a node a unit refuses, an input or output the file does not have.
 */
final class OnnxReader {
  private final Report report;
  private final SymbolSource files;

  /** A reader that finds files with {@code files} and reports to {@code report}. */
  OnnxReader(Report report, SymbolSource files) {
    this.report = report;
    this.files = files;
  }

  /**
   * The nodes of the imports {@code group} of one file, by the method each is placed under, read
   * with the shapes of the {@code @Input} nodes among {@code nodes}, each placeholder of the
   * model's free dimensions {@code dims} read as that dimension; null when an error was reported.
   */
  Map<String, List<NodeSpec>> read(
      List<ImportReader.Declared> group, List<NodeSpec> nodes, List<FreeDimSpec> dims) {
    Map<String, TShape> inputShapes = new HashMap<>();
    for (NodeSpec n : nodes) {
      if (n.layer() instanceof InputOp in) {
        TShape shape = declared(n, in.shape(), dims, group.get(0).model());
        if (shape == null) {
          return null;
        }
        inputShapes.put(n.name(), shape);
      }
    }
    Map<String, List<NodeSpec>> byMethod = new HashMap<>();
    for (ImportReader.Declared d : group) {
      Map<String, List<NodeSpec>> one = read(d, inputShapes);
      if (one == null) {
        return null;
      }
      byMethod.putAll(one);
    }
    return byMethod;
  }

  /**
   * The nodes of import {@code d}, under its method's name, sources before readers, the output
   * last; null when an error was reported. {@code inputShapes} gives the shapes of the model's
   * {@code @Input} nodes, by name: an ONNX input a parameter feeds from one is read at that shape.
   */
  Map<String, List<NodeSpec>> read(ImportReader.Declared d, Map<String, TShape> inputShapes) {
    byte[] bytes;
    try {
      bytes = files.bytes(d.symbol(), d.pkg());
    } catch (SymbolSource.NotFound e) {
      String resource = SymbolSource.resolve(d.symbol(), d.pkg());
      int slash = resource.lastIndexOf('/');
      fail(
          d,
          Message.IMPORT_NOT_FOUND,
          d.where(),
          d.symbol(),
          slash < 0 ? "" : "/" + resource.substring(0, slash),
          d.model() + ".java",
          resource,
          ImportReader.list(e.lookedIn));
      return null;
    }
    ModelProto model;
    try {
      model = OnnxFile.parse(bytes, d.symbol());
    } catch (OnnxFormatException e) {
      fail(d, Message.ONNX_NOT_MODEL, d.where(), e.getMessage());
      return null;
    }
    Map<String, TShape> shapes = new LinkedHashMap<>();
    for (NodeSpec.Wire w : d.wires()) {
      TShape fed = inputShapes.get(w.source());
      if (fed != null) {
        for (var in : model.getGraph().getInputList()) {
          if (ImportReader.identifier(in.getName()).equals(w.parameterName())) {
            shapes.put(in.getName(), fed);
          }
        }
      }
    }
    OnnxGraph graph;
    try {
      graph = OnnxImport.translate(model, d.symbol(), d.where(), shapes);
    } catch (RuleError e) {
      report.add(e.message, d.method(), d.mirror(), "onnx", e.args);
      return null;
    }
    return new Expansion(d, graph).nodes();
  }

  /**
   * The shape of input {@code n}, {@code shape}, with each placeholder the free dimension of {@code
   * dims} it stands for (a size the translation does not fold); null when one stands for none,
   * reported as the checker does ({@code FreeDimUndeclared}).
   */
  private TShape declared(NodeSpec n, TShape shape, List<FreeDimSpec> dims, String model) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < shape.rank(); i++) {
      int d = shape.dim(i);
      if (!TShape.isPlaceholder(d)) {
        out.add(d);
        continue;
      }
      FreeDimSpec f = dims.stream().filter(x -> x.placeholder() == d).findFirst().orElse(null);
      if (f == null) {
        report.add(
            Message.FREE_DIM_UNDECLARED,
            n.method(),
            n.mirror(),
            "shape",
            n.name(),
            i,
            d,
            model,
            "H");
        return null;
      }
      out.add(TShape.size(f.expression()));
    }
    return new TShape(out);
  }

  private void fail(ImportReader.Declared d, Message m, Object... args) {
    report.add(m, d.method(), d.mirror(), "onnx", args);
  }

  /** One import of one file being expanded. */
  private final class Expansion {
    private final ImportReader.Declared d;
    private final OnnxGraph graph;
    private final Map<String, OnnxGraph.Node> byName = new HashMap<>();
    private final Set<String> inputs = new HashSet<>();

    Expansion(ImportReader.Declared d, OnnxGraph graph) {
      this.d = d;
      this.graph = graph;
      graph.nodes().forEach(n -> byName.put(n.name(), n));
      graph.inputs().forEach(i -> inputs.add(i.name()));
    }

    Map<String, List<NodeSpec>> nodes() {
      List<String> outs = outputs();
      if (outs == null) {
        return null;
      }
      Set<String> needed = new LinkedHashSet<>();
      Set<String> fedInputs = new LinkedHashSet<>();
      List<String> stack = new ArrayList<>(outs);
      while (!stack.isEmpty()) {
        String name = stack.remove(stack.size() - 1);
        if (inputs.contains(name)) {
          fedInputs.add(name);
          continue;
        }
        if (needed.add(name)) {
          stack.addAll(byName.get(name).inputs());
        }
      }
      Map<String, NodeSpec.Wire> fed = bind(fedInputs);
      if (fed == null) {
        return null;
      }
      String output = outs.get(0);
      Map<String, String> kilnNames = new HashMap<>();
      for (String n : needed) {
        kilnNames.put(n, n.equals(output) ? d.name() : n);
        if (!n.equals(output) && d.taken().contains(n)) {
          fail(
              d,
              Message.IMPORT_NAME_TAKEN,
              d.where(),
              n,
              d.symbol(),
              d.model(),
              "node " + n + "()");
          return null;
        }
      }
      Set<String> read = new LinkedHashSet<>();
      for (String n : needed) {
        read.addAll(byName.get(n).params().values());
      }
      List<String> unused = new ArrayList<>();
      for (OnnxGraph.Param p : graph.params().values()) {
        if (!read.contains(p.name())) {
          unused.add(p.name());
        }
      }
      Map<String, TShape> inputShapes = new LinkedHashMap<>();
      graph.inputs().stream()
          .filter(i -> fedInputs.contains(i.name()))
          .forEach(i -> inputShapes.put(i.name(), i.shape()));
      List<NodeSpec> out = new ArrayList<>();
      for (OnnxGraph.Node n : graph.nodes()) {
        if (!needed.contains(n.name())) {
          continue;
        }
        boolean isOut = n.name().equals(output);
        List<NodeSpec.Wire> wires = new ArrayList<>();
        for (String in : n.inputs()) {
          if (inputs.contains(in)) {
            wires.add(fed.get(in));
          } else {
            String source = kilnNames.get(in);
            wires.add(new NodeSpec.Wire(source, source, null));
          }
        }
        ImportedFrom origin =
            new ImportedFrom(
                d.symbol(),
                d.name(),
                n.onnxNode().isEmpty() ? n.name() : n.onnxNode(),
                n.name(),
                n.params(),
                isOut ? d.wires() : List.of(),
                isOut,
                isOut ? unused : List.of(),
                true,
                n.constant(),
                isOut ? inputShapes : Map.of());
        out.add(
            new NodeSpec(
                kilnNames.get(n.name()),
                n.op(),
                wires,
                d.method(),
                d.mirror(),
                isOut ? imported() + " " + n.name() + ": " + n.text() : n.text(),
                isOut ? d.markedOutput() : outs.contains(n.name()),
                d.frozen(),
                origin));
      }
      return Map.of(d.name(), out);
    }

    /**
     * The Kiln nodes the import ends at, its own output first: the named tensor or node, or the
     * file's outputs (each one past the first stays an output of the model); null when reported.
     */
    private List<String> outputs() {
      if (d.output().isEmpty()) {
        List<String> outs = new ArrayList<>();
        graph.outputs().forEach(o -> outs.add(o.node()));
        return outs;
      }
      String node = graph.producers().get(d.output());
      if (node == null && byName.containsKey(d.output())) {
        node = d.output();
      }
      if (node == null) {
        for (OnnxGraph.Node n : graph.nodes()) {
          if (n.onnxNode().equals(d.output())) {
            node = n.name();
          }
        }
      }
      if (node != null) {
        return List.of(node);
      }
      List<String> names = new ArrayList<>(graph.producers().keySet());
      String close = Spelling.closest(d.output(), names);
      List<String> heads = graph.outputs().stream().map(OnnxGraph.Output::name).toList();
      fail(
          d,
          Message.IMPORT_UNKNOWN_OUTPUT,
          d.where(),
          d.output(),
          d.symbol(),
          "",
          String.join(", ", heads) + " and " + Math.max(0, names.size() - heads.size()) + " more",
          close == null ? "" : "; did you mean '" + close + "'?");
      return null;
    }

    /** The wire that feeds each of the file's inputs the import reads; null when reported. */
    private Map<String, NodeSpec.Wire> bind(Set<String> fedInputs) {
      Map<String, String> byParameter = new LinkedHashMap<>();
      for (OnnxGraph.Input in : graph.inputs()) {
        if (fedInputs.contains(in.name())) {
          byParameter.put(ImportReader.identifier(in.name()), in.name());
        }
      }
      Map<String, NodeSpec.Wire> fed = new LinkedHashMap<>();
      for (NodeSpec.Wire w : d.wires()) {
        String in = byParameter.get(w.parameterName());
        if (in == null) {
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
        fed.put(in, w);
      }
      for (Map.Entry<String, String> e : byParameter.entrySet()) {
        if (!fed.containsKey(e.getValue())) {
          fail(
              d,
              Message.IMPORT_UNFED_INPUT,
              d.where(),
              "the import",
              e.getValue(),
              d.symbol(),
              e.getKey());
          return null;
        }
      }
      return fed;
    }

    /** {@code @Imported(onnx = "model.onnx")}, as the table shows the import's output. */
    private String imported() {
      return "@Imported(onnx = \""
          + d.symbol()
          + "\""
          + (d.output().isEmpty() ? "" : ", output = \"" + d.output() + "\"")
          + ")";
    }
  }
}
