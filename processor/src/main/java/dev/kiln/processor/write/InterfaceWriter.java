package dev.kiln.processor.write;

import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.FreeDimSpec;
import dev.kiln.processor.model.NodeSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The {@code @Model} interface that the command line's {@code import} writes for a symbol file: one
 * {@code @Input} per input the file reads and one {@code @Imported} node per output (each also
 * {@code @Output} when there are several, so that none is an unused node), as the model was
 * checked, with its layer table in the Javadoc; written as a person would, one annotation a line,
 * at most 100 columns.
 */
public final class InterfaceWriter {
  private InterfaceWriter() {}

  /**
   * The source of the interface for {@code m}, which imports the file {@code symbol} (as the
   * annotation names it, beside the interface), at the outputs {@code cuts} gives by method (as the
   * user named them), or whole when it is empty.
   */
  public static String write(CheckedModel m, String symbol, Map<String, String> cuts) {
    boolean named = !cuts.isEmpty();
    StringBuilder b = new StringBuilder();
    if (!m.packageName().isEmpty()) {
      b.append("package ").append(m.packageName()).append(";\n\n");
    }
    boolean steps =
        m.nodes().stream()
            .anyMatch(n -> n.spec().isInput() && n.shape().dims().contains(TShape.STEPS));
    b.append("import static dev.kiln.annotations.Dim.BATCH;\n");
    b.append(steps ? "import static dev.kiln.annotations.Dim.STEPS;\n\n" : "\n");
    boolean marked = m.nodes().stream().anyMatch(n -> n.spec().markedOutput());
    List<FreeDimSpec> dims = m.spec().dims();
    List<String> imports = new ArrayList<>();
    if (!dims.isEmpty()) {
      imports.add("FreeDim");
    }
    imports.addAll(List.of("Imported", "Input", "Model"));
    if (marked) {
      imports.add("Output");
    }
    imports.add("Sym");
    for (String a : imports) {
      b.append("import dev.kiln.annotations.").append(a).append(";\n");
    }
    b.append('\n')
        .append(
            Javadoc.type()
                .paragraph(
                    "The graph of {@code "
                        + symbol
                        + "}, imported: written by {@code kiln import}; the processor "
                        + "checks every node of the file when it compiles this interface, and "
                        + "{@code "
                        + m.name()
                        + "Model.loadImported} reads "
                        + (onnx(m)
                            ? "its weights from the same file."
                            : "the {@code .params} published with it."))
                .pre(LayerTable.render(m))
                .build()
                .lines()
                .map(l -> l.isEmpty() ? " *" : " * " + l)
                .collect(Collectors.joining("\n", "/**\n", "\n */\n")))
        .append(m.classifierHead() != null ? "@Model(classifier = true)\n" : "@Model\n")
        .append("public interface ")
        .append(m.name())
        .append(" {\n");
    for (FreeDimSpec d : dims) {
      b.append("  @FreeDim int ")
          .append(d.name())
          .append(" = ")
          .append(d.placeholder())
          .append(";\n");
    }
    boolean first = dims.isEmpty();
    for (CheckedNode n : m.nodes()) {
      NodeSpec s = n.spec();
      String annotation;
      String params = "";
      if (s.isInput()) {
        annotation =
            "@Input(shape = {"
                + n.shape().dims().stream()
                    .map(d -> TShape.expression(d).toString())
                    .collect(Collectors.joining(", "))
                + "})";
      } else if (s.origin() != null && s.origin().output()) {
        String cut = cuts.getOrDefault(n.name(), s.origin().entry());
        String output = named ? ", output = \"" + cut + "\"" : "";
        String key = s.origin().onnx() ? "onnx" : "symbol";
        String one = "@Imported(" + key + " = \"" + symbol + "\"" + output + ")";
        annotation =
            one.length() <= 96 || !named
                ? one
                : "@Imported(\n      "
                    + key
                    + " = \""
                    + symbol
                    + "\",\n      output = \""
                    + cut
                    + "\")";
        params =
            s.origin().declared().stream()
                .map(w -> "Sym " + w.parameterName())
                .collect(Collectors.joining(", "));
      } else {
        continue;
      }
      b.append(first ? "" : "\n")
          .append(s.markedOutput() ? "  @Output\n" : "")
          .append("  ")
          .append(annotation)
          .append("\n  Sym ")
          .append(n.name())
          .append('(')
          .append(params)
          .append(");\n");
      first = false;
    }
    return b.append("}\n").toString();
  }

  /** Whether {@code m} imports an ONNX file. */
  private static boolean onnx(CheckedModel m) {
    return m.nodes().stream().anyMatch(n -> n.spec().origin() != null && n.spec().origin().onnx());
  }
}
