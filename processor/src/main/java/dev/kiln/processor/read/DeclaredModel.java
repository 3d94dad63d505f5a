package dev.kiln.processor.read;

import dev.kiln.onnx.OnnxImport;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.onnx.proto.Onnx.ValueInfoProto;
import dev.kiln.ops.Ops;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.FreeDimSpec;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.model.NodeSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A model that imports one symbol or ONNX file, declared without a source file: what the command
 * line's {@code inspect} and {@code import} check, as the processor would check the interface
 * {@code import} writes (its inputs, then one {@code @Imported} node per output, each named after
 * its file node).
 */
public final class DeclaredModel {
  private DeclaredModel() {}

  /**
   * One input: the file's input variable it feeds, and its shape.
   *
   * @param name the file's name for it
   * @param shape its dimensions, {@code -1} for {@code BATCH}, {@code -5} for {@code STEPS}, a
   *     {@link Dim}'s placeholder for a free dimension
   */
  public record Input(String name, int[] shape) {
    /**
     * {@code @Input(shape = {BATCH, 3, H, W})}, each free dimension by its name in {@code dims}.
     */
    public String annotation(List<Dim> dims) {
      return "@Input(shape = {"
          + java.util.Arrays.stream(shape)
              .mapToObj(
                  d ->
                      d == TShape.BATCH
                          ? "BATCH"
                          : d == TShape.STEPS
                              ? "STEPS"
                              : dims.stream()
                                  .filter(f -> f.placeholder() == d)
                                  .map(Dim::name)
                                  .findFirst()
                                  .orElse(Integer.toString(d)))
              .collect(Collectors.joining(", "))
          + "})";
    }
  }

  /**
   * A free dimension the model declares, {@code @FreeDim int H = -10;}: a size the inputs' shapes
   * name, known only when an executor is bound.
   *
   * @param name the constant's name ({@code H})
   * @param placeholder its value, from {@link TShape#PLACEHOLDER_FIRST} down
   */
  public record Dim(String name, int placeholder) {}

  /**
   * The inputs of a file as it declares them, with the free dimensions their shapes name.
   *
   * @param inputs the inputs
   * @param dims the free dimensions, in the order of their placeholders
   */
  public record Inputs(List<Input> inputs, List<Dim> dims) {
    /** Copies the lists. */
    public Inputs {
      inputs = List.copyOf(inputs);
      dims = List.copyOf(dims);
    }
  }

  /**
   * One import: the method's name and the file node whose output it is.
   *
   * @param method the method's name (a Java identifier)
   * @param output the file's node, or empty for the file's one output
   */
  public record Import(String method, String output) {}

  /**
   * The imports of the file {@code text} for {@code outputs}: each named after its node as a Java
   * identifier. With no outputs named, the file's one output, or, for a file of several, one import
   * per output of the file, so that the file is imported whole and each of its outputs is one of
   * the model's ({@code <node>_output<i>} for an output past a node's first). (A file that is no
   * symbol gets one import named {@code net}, which reading reports.)
   */
  public static List<Import> imports(String text, List<String> outputs) {
    if (!outputs.isEmpty()) {
      return outputs.stream().map(o -> new Import(ImportReader.identifier(o), o)).toList();
    }
    try {
      SymbolFile file = SymbolFile.parse(text).namedApart();
      if (file.heads().size() == 1) {
        String head = file.node(file.heads().get(0)).name();
        return List.of(new Import(ImportReader.identifier(head), ""));
      }
      Set<String> heads = new java.util.LinkedHashSet<>();
      for (SymbolFile.Entry h : file.heads()) {
        String node = file.node(h).name();
        heads.add(h.index() == 0 ? node : node + "_output" + h.index());
      }
      return heads.stream().map(o -> new Import(ImportReader.identifier(o), o)).toList();
    } catch (IllegalArgumentException e) {
      // Reading the import reports it.
    }
    return List.of(new Import("net", ""));
  }

  /**
   * The imports of the ONNX model {@code model} for {@code outputs}: each named after its tensor as
   * a Java identifier; when none is named, one import of the whole graph, named after its first
   * output (the others stay outputs of the model).
   */
  public static List<Import> onnxImports(ModelProto model, List<String> outputs) {
    if (!outputs.isEmpty()) {
      return outputs.stream().map(o -> new Import(ImportReader.identifier(o), o)).toList();
    }
    List<String> heads =
        model.getGraph().getOutputList().stream().map(ValueInfoProto::getName).toList();
    return List.of(new Import(heads.isEmpty() ? "net" : ImportReader.identifier(heads.get(0)), ""));
  }

  /**
   * The data inputs of the ONNX model {@code model} (named {@code file}) with their shapes as the
   * file declares them: a symbolic first dimension is {@code BATCH}, each {@code dim_param} past
   * the first a free dimension named after it ({@link OnnxImport#dimName}); null when a size past
   * the first is neither fixed nor named, which is reported on the model {@code type}.
   */
  public static Inputs onnxInputs(ModelProto model, String file, String type, Report report) {
    OnnxImport.DeclaredInputs declared;
    try {
      declared = OnnxImport.inputShapes(model, file, type);
    } catch (RuleError e) {
      report.add(e.message, null, e.args);
      return null;
    }
    List<Input> out = new ArrayList<>();
    declared
        .shapes()
        .forEach(
            (name, shape) ->
                out.add(
                    new Input(name, shape.dims().stream().mapToInt(Integer::intValue).toArray())));
    List<Dim> dims = new ArrayList<>();
    declared.dims().forEach((name, placeholder) -> dims.add(new Dim(name, placeholder)));
    return new Inputs(out, dims);
  }

  /**
   * The free dimensions {@code dims} as the checker reads a model's declarations: any size (from 1,
   * no limit), declared nowhere in a source file.
   */
  static List<FreeDimSpec> specs(List<Dim> dims) {
    return dims.stream()
        .map(
            d ->
                new FreeDimSpec(
                    d.name(), d.placeholder(), 1, Integer.MAX_VALUE, 1, null, null, null))
        .toList();
  }

  /**
   * The model {@code type} of package {@code pkg}: {@code inputs} (their shapes naming {@code
   * dims}) and the imports of {@code file} (an ONNX model when {@code onnx}, else a symbol file)
   * that {@code files} finds; null when an error was reported.
   */
  public static ModelSpec read(
      String type,
      String pkg,
      String file,
      boolean onnx,
      SymbolSource files,
      List<Input> inputs,
      List<Dim> dims,
      List<Import> imports,
      Report report) {
    List<FreeDimSpec> specs = specs(dims);
    List<NodeSpec> nodes = new ArrayList<>();
    List<NodeSpec.Wire> wires = new ArrayList<>();
    for (Input in : inputs) {
      String name = ImportReader.identifier(in.name());
      String text = in.annotation(dims);
      var op = Ops.input(in.shape());
      try {
        op.checkAttributes(new AttributeSite(name, type + "." + name + "()", text));
      } catch (RuleError e) {
        report.add(e.message, null, e.args);
        return null;
      }
      nodes.add(new NodeSpec(name, op, List.of(), null, null, text, false, null));
      wires.add(new NodeSpec.Wire(name, name, null));
    }
    Set<String> taken =
        nodes.stream().map(NodeSpec::name).collect(Collectors.toCollection(java.util.HashSet::new));
    List<ImportReader.Declared> group = new ArrayList<>();
    for (Import i : imports) {
      if (!taken.add(i.method())) {
        report.add(Message.NODE_NAME_TAKEN, null, type, i.method());
        return null;
      }
      group.add(
          new ImportReader.Declared(
              type,
              pkg,
              i.method(),
              null,
              null,
              file,
              i.output(),
              wires,
              imports.size() > 1,
              null,
              nodes.stream().map(NodeSpec::name).collect(Collectors.toSet()),
              onnx));
    }
    Map<String, List<NodeSpec>> byMethod =
        onnx
            ? new OnnxReader(report, files).read(group, nodes, specs)
            : new ImportReader(report, files).read(group);
    if (byMethod == null) {
      return null;
    }
    Map<String, List<NodeSpec>> ordered = new LinkedHashMap<>(byMethod);
    ordered.values().forEach(nodes::addAll);
    return new ModelSpec(
        null, pkg, type, false, null, ImportReader.outputsKept(nodes), List.of(), specs);
  }
}
