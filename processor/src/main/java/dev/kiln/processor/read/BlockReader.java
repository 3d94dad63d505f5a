package dev.kiln.processor.read;

import dev.kiln.annotations.Block;
import dev.kiln.annotations.Model;
import dev.kiln.ops.rule.Message;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.BlockSpec;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.model.NodeSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.util.Elements;

/**
 * Reads a {@code @Block} node: the block interface is read and checked as the model it is (its own
 * mistakes are reported where it is compiled, so here they only stop the model that uses it), then
 * its nodes are written into the model once per copy, copy {@code i} of node {@code n} as {@code
 * <node><i>_<n>}, reading the copy before it.
 */
final class BlockReader {
  private static final String BLOCK = Block.class.getCanonicalName();

  private final Elements elements;
  private final Report report;
  private final SymbolSource symbols;
  private final ModelReader.Checker checker;
  private final Set<String> reading;
  private final SourceAnnotations source;

  /**
   * A reader reporting to {@code report}, finding imported symbol files with {@code symbols},
   * checking blocks with {@code checker}, inside the models named in {@code reading} (outermost
   * first), which no block may contain again, reading custom layers' bodies from {@code source}.
   */
  BlockReader(
      Elements elements,
      Report report,
      SymbolSource symbols,
      ModelReader.Checker checker,
      Set<String> reading,
      SourceAnnotations source) {
    this.source = source;
    this.elements = elements;
    this.report = report;
    this.symbols = symbols;
    this.checker = checker;
    this.reading = reading;
  }

  /**
   * What a block node became: its inlined nodes (each copy's output last) and its description; or
   * only {@code silent}, when the block has mistakes of its own, reported where it is compiled.
   *
   * @param nodes the inlined nodes
   * @param block the block
   * @param silent whether the model must not be generated, with nothing to report here
   */
  record Inlined(List<NodeSpec> nodes, BlockSpec block, boolean silent) {}

  /** Whether {@code mirror} is {@code @Block}. */
  static boolean isBlock(AnnotationMirror mirror) {
    return ((TypeElement) mirror.getAnnotationType().asElement())
        .getQualifiedName()
        .contentEquals(BLOCK);
  }

  /** The {@code @Block} on {@code method}, or null. */
  static AnnotationMirror of(ExecutableElement method) {
    return method.getAnnotationMirrors().stream()
        .filter(BlockReader::isBlock)
        .findFirst()
        .orElse(null);
  }

  /** The interface {@code mirror} names as its block. */
  static TypeElement type(AnnotationMirror mirror) {
    for (var e : mirror.getElementValues().entrySet()) {
      if (e.getKey().getSimpleName().contentEquals("value")
          && e.getValue().getValue() instanceof DeclaredType t) {
        return (TypeElement) t.asElement();
      }
    }
    return null;
  }

  /** Reads block node {@code method} of {@code model}; null when a mistake was reported. */
  Inlined inline(String model, ExecutableElement method, AnnotationMirror mirror) {
    String name = method.getSimpleName().toString();
    String where = model + "." + name + "()";
    String text = AnnotationText.render(mirror);
    if (!method.getModifiers().contains(Modifier.ABSTRACT)) {
      report.add(Message.NODE_NOT_ABSTRACT, method, name, text);
      return null;
    }
    if (!method.getReturnType().toString().equals(ModelReader.SYM)) {
      report.add(Message.NODE_RETURN_TYPE, method, name, method.getReturnType());
      return null;
    }
    for (VariableElement p : method.getParameters()) {
      if (!p.asType().toString().equals(ModelReader.SYM)) {
        report.add(Message.NODE_PARAM_TYPE, p, p.getSimpleName(), name, p.asType());
        return null;
      }
    }
    if (method.getParameters().size() != 1) {
      String declared =
          method.getParameters().stream()
              .map(p -> p.getSimpleName().toString())
              .collect(Collectors.joining(", "));
      report.add(
          Message.INPUT_COUNT,
          method,
          where,
          "@Block",
          "exactly 1 input",
          name,
          method.getParameters().size(),
          declared.isEmpty() ? "none" : declared);
      return null;
    }
    Block block = method.getAnnotation(Block.class);
    if (block.repeat() <= 0) {
      report.add(
          Message.NON_POSITIVE,
          method,
          mirror,
          "repeat",
          where + " " + text,
          "repeat",
          block.repeat());
      return null;
    }
    TypeElement type = type(mirror);
    if (type == null
        || type.getKind() != ElementKind.INTERFACE
        || type.getAnnotation(Model.class) == null) {
      String what = type == null ? "?" : type.getSimpleName().toString();
      report.add(Message.BLOCK_NOT_MODEL, method, mirror, "value", where, what);
      return null;
    }
    String qualified = type.getQualifiedName().toString();
    String simple = type.getSimpleName().toString();
    if (reading.contains(qualified)) {
      List<String> chain = new ArrayList<>();
      reading.forEach(r -> chain.add(r.substring(r.lastIndexOf('.') + 1)));
      chain.add(simple);
      report.add(
          Message.BLOCK_CYCLE, method, mirror, "value", where, simple, String.join(" -> ", chain));
      return null;
    }
    Set<String> inside = new LinkedHashSet<>(reading);
    inside.add(qualified);
    Report own = new Report();
    ModelSpec spec = new ModelReader(elements, own, symbols, checker, inside, source).read(type);
    CheckedModel checked = spec == null || own.hasErrors() ? null : checker.check(spec, own);
    if (checked == null) {
      return new Inlined(List.of(), null, true);
    }
    if (checked.inputs().size() != 1 || checked.outputs().size() != 1) {
      report.add(Message.BLOCK_ENDS, method, mirror, "value", where, simple, ends(checked));
      return null;
    }
    CheckedNode input = checked.inputs().get(0);
    CheckedNode output = checked.outputs().get(0);
    if (block.repeat() > 1 && !BlockSpec.accepts(input.shape(), output.shape())) {
      report.add(
          Message.BLOCK_REPEAT,
          method,
          mirror,
          "repeat",
          where,
          block.repeat(),
          simple,
          output.shape(),
          input.name(),
          input.shape());
      return null;
    }
    return copies(name, method, mirror, text, type, spec, input, output, block.repeat());
  }

  /** The block's nodes written {@code repeat} times. */
  private static Inlined copies(
      String name,
      ExecutableElement method,
      AnnotationMirror mirror,
      String text,
      TypeElement type,
      ModelSpec spec,
      CheckedNode input,
      CheckedNode output,
      int repeat) {
    String simple = type.getSimpleName().toString();
    List<NodeSpec> nodes = new ArrayList<>();
    List<List<String>> copies = new ArrayList<>();
    List<String> copyInputs = new ArrayList<>();
    String previous = method.getParameters().get(0).getSimpleName().toString();
    var from = method.getParameters().get(0).getAnnotation(dev.kiln.annotations.From.class);
    if (from != null) {
      previous = from.value();
    }
    List<NodeSpec> body = new ArrayList<>();
    NodeSpec last = null;
    for (NodeSpec n : spec.nodes()) {
      if (n.name().equals(output.name())) {
        last = n;
      } else if (!n.name().equals(input.name())) {
        body.add(n);
      }
    }
    body.add(last);
    for (int c = 0; c < repeat; c++) {
      String prefix = name + c + "_";
      String copyInput = previous;
      copyInputs.add(copyInput);
      List<String> names = new ArrayList<>();
      for (NodeSpec n : body) {
        List<NodeSpec.Wire> wires =
            n.wires().stream()
                .map(
                    w ->
                        new NodeSpec.Wire(
                            w.source().equals(input.name()) ? copyInput : prefix + w.source(),
                            w.parameterName(),
                            w.parameter()))
                .toList();
        NodeSpec copy = n.inline(prefix + n.name(), wires, name, c, simple);
        nodes.add(copy);
        names.add(copy.name());
      }
      copies.add(names);
      previous = prefix + output.name();
    }
    BlockSpec b =
        new BlockSpec(
            name,
            method,
            mirror,
            text,
            simple,
            type.getQualifiedName().toString(),
            input.name(),
            input.shape(),
            copyInputs,
            copies,
            previous);
    return new Inlined(nodes, b, false);
  }

  /** {@code 2 inputs (a, b)} or {@code the outputs x and y}: what a block has too much of. */
  private static String ends(CheckedModel m) {
    if (m.inputs().size() != 1) {
      return m.inputs().size()
          + " inputs ("
          + m.inputs().stream().map(CheckedNode::name).collect(Collectors.joining(", "))
          + ")";
    }
    return "the outputs "
        + m.outputs().stream().map(CheckedNode::name).collect(Collectors.joining(" and "));
  }
}
