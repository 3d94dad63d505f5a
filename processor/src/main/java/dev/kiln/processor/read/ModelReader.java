package dev.kiln.processor.read;

import dev.kiln.annotations.From;
import dev.kiln.annotations.Imported;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.ops.Op;
import dev.kiln.ops.OpReader;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.BlockSpec;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.FreeDimSpec;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.model.NodeSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Phase one: reads a {@code @Model} interface into a {@link ModelSpec}. It checks only what can be
 * seen one method at a time (return and parameter types, one layer annotation each, attribute
 * values); wiring and shapes are the check phase's. It runs only on a model that {@link Validation}
 * found complete, so every type and value it reads is resolved.
 */
public final class ModelReader {
  /** The qualified name of {@code Sym}, the type of every node. */
  static final String SYM = "dev.kiln.annotations.Sym";

  private static final String FROZEN = "dev.kiln.annotations.Frozen";

  private final Elements elements;
  private final Report report;
  private final SymbolSource symbols;
  private final Checker checker;
  private final Set<String> reading;
  private final SourceAnnotations source;

  /** The free dimensions of the model being read, whose names inputs' texts show. */
  private List<FreeDimSpec> freeDims = List.of();

  /**
   * How a block is checked as the model it is, before its nodes are written into another: the check
   * phase, which the reader does not know, handed to it by the processor.
   */
  @FunctionalInterface
  public interface Checker {
    /** The checked model, or null when an error was reported to {@code report}. */
    CheckedModel check(ModelSpec spec, Report report);
  }

  /**
   * A reader that reports to {@code report}, finds imported symbol files with {@code symbols} and
   * checks each {@code @Block} with {@code checker}.
   */
  public ModelReader(Elements elements, Report report, SymbolSource symbols, Checker checker) {
    this(elements, report, symbols, checker, SourceAnnotations.none());
  }

  /**
   * As {@link #ModelReader(Elements, Report, SymbolSource, Checker)}, reading custom layers'
   * forward bodies from {@code source} (javac's trees), so that they are traced at compile time.
   */
  public ModelReader(
      Elements elements,
      Report report,
      SymbolSource symbols,
      Checker checker,
      SourceAnnotations source) {
    this(elements, report, symbols, checker, Set.of(), source);
  }

  ModelReader(
      Elements elements,
      Report report,
      SymbolSource symbols,
      Checker checker,
      Set<String> reading,
      SourceAnnotations source) {
    this.source = source;
    this.elements = elements;
    this.report = report;
    this.symbols = symbols;
    this.checker = checker;
    this.reading = reading;
  }

  /** Reads {@code type}; returns null when it cannot be a model at all. */
  public ModelSpec read(TypeElement type) {
    String simpleName = type.getSimpleName().toString();
    if (type.getKind() != ElementKind.INTERFACE) {
      report.add(
          Message.MODEL_NOT_INTERFACE,
          type,
          simpleName,
          article(type.getKind().toString().toLowerCase(Locale.ROOT).replace('_', ' ')),
          simpleName);
      return null;
    }
    if (!type.getTypeParameters().isEmpty()) {
      report.add(Message.MODEL_GENERIC, type, simpleName);
      return null;
    }
    List<FreeDimSpec> dims = FreeDimReader.read(type, report);
    if (dims == null) {
      return null; // the other nodes' placeholders would be reported again
    }
    freeDims = dims;
    String pkg = elements.getPackageOf(type).getQualifiedName().toString();
    Set<String> methodNames = new HashSet<>();
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      methodNames.add(method.getSimpleName().toString());
    }
    List<NodeSpec> nodes = new ArrayList<>();
    List<BlockSpec> blocks = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<String> inside = new LinkedHashSet<>(reading);
    inside.add(type.getQualifiedName().toString());
    boolean blockFailed = false;
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      AnnotationMirror blockMirror = BlockReader.of(method);
      if (blockMirror != null && layerMirrors(method).isEmpty()) {
        BlockReader.Inlined b =
            new BlockReader(elements, report, symbols, checker, inside, source)
                .inline(simpleName, method, blockMirror);
        if (b == null || b.silent()) {
          blockFailed |= b != null;
          continue;
        }
        if (!names.add(b.block().name())) {
          report.add(Message.NODE_NAME_TAKEN, method, simpleName, b.block().name());
          continue;
        }
        for (NodeSpec n : b.nodes()) {
          if (!names.add(n.name())) {
            report.add(Message.NODE_NAME_TAKEN, method, simpleName, n.name());
          }
        }
        nodes.addAll(b.nodes());
        blocks.add(b.block());
        continue;
      }
      NodeSpec node = readNode(simpleName, method);
      if (node == null) {
        continue;
      }
      if (!names.add(node.name())) {
        report.add(Message.NODE_NAME_TAKEN, method, simpleName, node.name());
        continue;
      }
      nodes.add(node);
    }
    nodes = expandImports(simpleName, pkg, nodes, methodNames);
    if (blockFailed || dims == null) {
      return null; // a block's own mistakes, reported where it is compiled
    }
    if (nodes.isEmpty() && !report.hasErrors()) {
      report.add(Message.MODEL_EMPTY, type, simpleName);
    }
    return new ModelSpec(
        type,
        pkg,
        simpleName,
        type.getAnnotation(Model.class).classifier(),
        mirror(type.getAnnotationMirrors(), Model.class.getCanonicalName()),
        throughBlocks(nodes, blocks),
        throughBlocks(blocks),
        dims);
  }

  /** The nodes with every wire to a block node led to the block's output. */
  private static List<NodeSpec> throughBlocks(List<NodeSpec> nodes, List<BlockSpec> blocks) {
    Map<String, String> outputs = new HashMap<>();
    blocks.forEach(b -> outputs.put(b.name(), b.output()));
    List<NodeSpec> out = new ArrayList<>();
    for (NodeSpec n : nodes) {
      List<NodeSpec.Wire> wires =
          n.wires().stream()
              .map(
                  w ->
                      new NodeSpec.Wire(
                          outputs.getOrDefault(w.source(), w.source()),
                          w.parameterName(),
                          w.parameter()))
              .toList();
      out.add(wires.equals(n.wires()) ? n : n.rewired(wires));
    }
    return out;
  }

  /** The blocks with each first copy's input led to the block it reads, if it reads one. */
  private static List<BlockSpec> throughBlocks(List<BlockSpec> blocks) {
    Map<String, String> outputs = new HashMap<>();
    blocks.forEach(b -> outputs.put(b.name(), b.output()));
    List<BlockSpec> out = new ArrayList<>();
    for (BlockSpec b : blocks) {
      List<String> inputs = new ArrayList<>(b.copyInputs());
      inputs.set(0, outputs.getOrDefault(inputs.get(0), inputs.get(0)));
      out.add(
          new BlockSpec(
              b.name(),
              b.method(),
              b.mirror(),
              b.annotationText(),
              b.type(),
              b.qualifiedType(),
              b.inputName(),
              b.declaredInput(),
              inputs,
              b.copies(),
              b.output()));
    }
    return out;
  }

  /** The layer annotations on {@code method}: built-in, custom or an import. */
  private static List<AnnotationMirror> layerMirrors(ExecutableElement method) {
    List<AnnotationMirror> layers = new ArrayList<>();
    for (AnnotationMirror m : method.getAnnotationMirrors()) {
      if (Builtins.of(m) != null || CustomLayerReader.isLayer(m) || ImportReader.isImport(m)) {
        layers.add(m);
      }
    }
    return layers;
  }

  /** {@code "an enum"}, {@code "a class"}. */
  private static String article(String noun) {
    return ("aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ") + noun;
  }

  /**
   * {@code nodes} with every {@code @Imported} node replaced by the nodes of its file. Imports of
   * the same file over the same parameters share the file's nodes, each placed under the first
   * import that needs it; an import whose file has an error is left out (it was reported).
   */
  private List<NodeSpec> expandImports(
      String model, String pkg, List<NodeSpec> nodes, Set<String> methodNames) {
    Map<String, List<ImportReader.Declared>> groups = new LinkedHashMap<>();
    Set<String> importNames = new HashSet<>();
    for (NodeSpec n : nodes) {
      if (n.layer() instanceof Pending p
          && p.imported().symbol().isEmpty() == p.imported().onnx().isEmpty()) {
        report.add(
            Message.IMPORT_SOURCE,
            n.method(),
            n.mirror(),
            null,
            model + "." + n.name() + "()",
            p.imported().symbol().isEmpty() ? "neither" : "both");
        importNames.add(n.name());
        continue;
      }
      if (n.layer() instanceof Pending p) {
        String key =
            (p.imported().onnx().isEmpty() ? p.imported().symbol() : p.imported().onnx())
                + n.wires().stream()
                    .map(w -> " " + w.parameterName() + "=" + w.source())
                    .collect(java.util.stream.Collectors.joining());
        groups.computeIfAbsent(key, k -> new ArrayList<>()).add(declared(model, pkg, n, p));
        importNames.add(n.name());
      }
    }
    if (importNames.isEmpty()) {
      return nodes;
    }
    Map<String, List<NodeSpec>> expanded = new HashMap<>();
    for (List<ImportReader.Declared> group : groups.values()) {
      Set<String> taken = new HashSet<>(methodNames);
      group.forEach(d -> taken.remove(d.name()));
      List<ImportReader.Declared> withTaken = group.stream().map(d -> d.withTaken(taken)).toList();
      Map<String, List<NodeSpec>> byMethod;
      if (withTaken.get(0).onnx()) {
        byMethod = new OnnxReader(report, symbols).read(withTaken, nodes, freeDims);
      } else {
        byMethod = new ImportReader(report, symbols).read(withTaken);
      }
      if (byMethod != null) {
        expanded.putAll(byMethod);
      }
    }
    List<NodeSpec> out = new ArrayList<>();
    for (NodeSpec n : nodes) {
      if (importNames.contains(n.name())) {
        out.addAll(expanded.getOrDefault(n.name(), List.of()));
      } else {
        out.add(n);
      }
    }
    return ImportReader.outputsKept(out);
  }

  private static ImportReader.Declared declared(String model, String pkg, NodeSpec n, Pending p) {
    return new ImportReader.Declared(
        model,
        pkg,
        n.name(),
        n.method(),
        n.mirror(),
        p.imported().onnx().isEmpty() ? p.imported().symbol() : p.imported().onnx(),
        p.imported().output(),
        n.wires(),
        n.markedOutput(),
        n.frozenMirror(),
        Set.of(),
        !p.imported().onnx().isEmpty());
  }

  /** An {@code @Imported} node as read from its method, before its file is read. */
  private record Pending(Imported imported) implements Op {
    @Override
    public String annotation() {
      return "Imported";
    }

    @Override
    public String mxnetOp() {
      return "";
    }

    @Override
    public int arity() {
      return 0;
    }

    @Override
    public void checkAttributes(AttributeSite site) {
      // The file's nodes are checked when the file is read.
    }

    @Override
    public Inferred infer(ShapeSite site) {
      throw new IllegalStateException("an import is expanded when it is read");
    }

    @Override
    public long flops(List<TShape> in, TShape out) {
      return -1;
    }

    @Override
    public NodeCall call(CallSite site) {
      throw new IllegalStateException("an import is expanded when it is read");
    }
  }

  private NodeSpec readNode(String model, ExecutableElement method) {
    List<AnnotationMirror> layers = layerMirrors(method);
    AnnotationMirror block = BlockReader.of(method);
    if (block != null) {
      layers.add(block); // a block beside a layer: two layers on one node
    }
    boolean isAbstract = method.getModifiers().contains(Modifier.ABSTRACT);
    String name = method.getSimpleName().toString();
    if (layers.isEmpty()) {
      if (isAbstract) {
        report.add(
            Message.MISSING_LAYER, method, method.getEnclosingElement().getSimpleName(), name);
      }
      return null;
    }
    if (layers.size() > 1) {
      List<String> found =
          layers.stream()
              .map(m -> "@" + m.getAnnotationType().asElement().getSimpleName())
              .toList();
      report.add(Message.SEVERAL_LAYERS, method, name, found.size(), String.join(", ", found));
      return null;
    }
    AnnotationMirror mirror = layers.get(0);
    String text = AnnotationText.render(mirror);
    for (FreeDimSpec d : freeDims) {
      text = text.replaceAll("(?<=[{ ])" + d.placeholder() + "(?=[,})])", d.name());
    }
    if (!Builtins.isInput(mirror) && !freeAttribute(model, method, mirror, text)) {
      return null;
    }
    if (!isAbstract) {
      report.add(Message.NODE_NOT_ABSTRACT, method, name, text);
      return null;
    }
    boolean ok = true;
    if (name.equals("finalize") && method.getParameters().isEmpty()) {
      // The one method name a node cannot have: XGraph implements the model interface.
      report.add(Message.RESERVED_NAME, method, model + "." + name + "()", model + "Graph", model);
      return null;
    }
    if (!method.getReturnType().toString().equals(SYM)) {
      report.add(Message.NODE_RETURN_TYPE, method, name, method.getReturnType());
      ok = false;
    }
    List<NodeSpec.Wire> wires = new ArrayList<>();
    for (VariableElement p : method.getParameters()) {
      if (!p.asType().toString().equals(SYM)) {
        report.add(Message.NODE_PARAM_TYPE, p, p.getSimpleName(), name, p.asType());
        ok = false;
      }
      From from = p.getAnnotation(From.class);
      String paramName = p.getSimpleName().toString();
      wires.add(new NodeSpec.Wire(from == null ? paramName : from.value(), paramName, p));
    }
    String where = model + "." + name + "()";
    OpReader<?> builtin = Builtins.of(mirror);
    Op layer =
        builtin != null
            ? Builtins.read(builtin, method)
            : ImportReader.isImport(mirror)
                ? new Pending(method.getAnnotation(Imported.class))
                : new CustomLayerReader(report, source).read(where, method, mirror);
    if (layer == null) {
      ok = false;
    } else {
      try {
        layer.checkAttributes(new AttributeSite(name, where, text));
      } catch (RuleError e) {
        report.add(e.message, method, mirror, e.attribute, e.args);
        ok = false;
      }
    }
    if (!ok) {
      return null;
    }
    return new NodeSpec(
        name,
        layer,
        wires,
        method,
        mirror,
        text,
        method.getAnnotation(Output.class) != null,
        mirror(method.getAnnotationMirrors(), FROZEN));
  }

  /**
   * Whether no attribute of layer {@code mirror} on {@code method} is a free dimension's
   * placeholder; reports the first that is ({@code FreeDimAttribute}): a layer's attributes are the
   * same at every size.
   */
  private boolean freeAttribute(
      String model, ExecutableElement method, AnnotationMirror mirror, String text) {
    for (var e : mirror.getElementValues().entrySet()) {
      List<Object> values = new ArrayList<>();
      Object raw = e.getValue().getValue();
      if (raw instanceof List<?> list) {
        list.forEach(v -> values.add(((javax.lang.model.element.AnnotationValue) v).getValue()));
      } else {
        values.add(raw);
      }
      for (Object v : values) {
        for (FreeDimSpec d : freeDims) {
          if (v instanceof Integer i && i == d.placeholder()) {
            report.add(
                Message.FREE_DIM_ATTRIBUTE,
                method,
                mirror,
                e.getKey().getSimpleName().toString(),
                model + "." + method.getSimpleName() + "()",
                text,
                e.getKey().getSimpleName(),
                d.name());
            return false;
          }
        }
      }
    }
    return true;
  }

  private static AnnotationMirror mirror(
      List<? extends AnnotationMirror> mirrors, String qualifiedName) {
    for (AnnotationMirror m : mirrors) {
      TypeElement t = (TypeElement) m.getAnnotationType().asElement();
      if (t.getQualifiedName().contentEquals(qualifiedName)) {
        return m;
      }
    }
    return null;
  }
}
