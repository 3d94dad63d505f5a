package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.NodeSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * The body of an {@code @Imported} node's method in {@code XGraph}: one graph builder call per node
 * of the file the import needs, each kept under its file name in a map of the symbols made so far,
 * then the output node's own call. An import of more than {@link #PART} nodes emits them in private
 * methods of {@link #PART} nodes each, so that no method nears the JVM's 64 KB limit.
 */
final class ImportWriter {
  /** Nodes per method. */
  static final int PART = 100;

  private static final TypeName SYMBOLS =
      ParameterizedTypeName.get(ClassName.get(Map.class), ClassName.get(String.class), Names.SYM);

  private final CheckedModel m;
  private final GeneratedNames names;
  private final NameAllocator methods;

  /** A writer for the imports of {@code model}; {@code methods} allocates the parts' names. */
  ImportWriter(CheckedModel model, GeneratedNames names, NameAllocator methods) {
    this.m = model;
    this.names = names;
    this.methods = methods;
  }

  /** The nodes of the import whose output is {@code out}, in order, without {@code out}. */
  private List<CheckedNode> inner(CheckedNode out) {
    String method = out.spec().origin().method();
    return m.order().stream()
        .filter(n -> n.spec().importedInner() && n.spec().origin().method().equals(method))
        .toList();
  }

  /**
   * The statements of the method of {@code out}, the import's output; {@code parts} receives the
   * private methods it calls.
   */
  CodeBlock body(CheckedNode out, List<MethodSpec> parts) {
    CodeBlock.Builder b = CodeBlock.builder();
    b.addStatement("$T symbols = new $T<>()", SYMBOLS, HashMap.class);
    for (NodeSpec.Wire w : out.spec().origin().declared()) {
      b.addStatement("symbols.put($S, $N)", w.source(), w.parameterName());
    }
    List<CheckedNode> inner = inner(out);
    if (inner.size() <= PART) {
      inner.forEach(n -> b.add(put(n)));
    } else {
      for (int from = 0; from < inner.size(); from += PART) {
        List<CheckedNode> part = inner.subList(from, Math.min(inner.size(), from + PART));
        String name = methods.newName(out.name() + "Part" + (from / PART + 1));
        b.addStatement("$N(symbols)", name);
        parts.add(part(name, out, part));
      }
    }
    if (out.spec().frozen() && !out.params().isEmpty()) {
      b.addStatement("this.builder.freeze($L)", names.source(out.name()));
    }
    b.addStatement("return $L", call(out));
    return b.build();
  }

  /** A private method that emits {@code part}. */
  private MethodSpec part(String name, CheckedNode out, List<CheckedNode> part) {
    String doc =
        "Emits nodes "
            + part.get(0).name()
            + " to "
            + part.get(part.size() - 1).name()
            + " of {@code "
            + out.spec().origin().symbol()
            + "} for {@link #"
            + out.name()
            + "}, each kept in {@code symbols} under its name.";
    MethodSpec.Builder b =
        MethodSpec.methodBuilder(name)
            .addModifiers(Modifier.PRIVATE)
            .addParameter(SYMBOLS, "symbols")
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(doc)
                    .param("symbols", "the symbols made so far, by name")
                    .build());
    part.forEach(n -> b.addCode(put(n)));
    return b.build();
  }

  /** {@code symbols.put("conv0", this.builder.node(...));}, after any freeze. */
  private CodeBlock put(CheckedNode n) {
    CodeBlock.Builder b = CodeBlock.builder();
    if (n.spec().frozen() && !n.params().isEmpty()) {
      b.addStatement("this.builder.freeze($L)", names.source(n.name()));
    }
    return b.addStatement("symbols.put($S,$W$L)", n.name(), call(n)).build();
  }

  /** The builder call of {@code n}, reading its inputs from {@code symbols}. */
  private CodeBlock call(CheckedNode n) {
    List<String> in = new ArrayList<>();
    for (NodeSpec.Wire w : n.spec().wires()) {
      in.add(CodeBlock.of("symbols.get($S)", w.source()).toString());
    }
    return new CallFormatter(names, n, in).expression();
  }
}
