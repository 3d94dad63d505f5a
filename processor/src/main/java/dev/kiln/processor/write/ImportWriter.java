package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
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

  /** Whether {@code m} imports a symbol file, so that its graph keeps a map of symbols. */
  static boolean imports(CheckedModel m) {
    return m.nodes().stream().anyMatch(n -> n.spec().origin() != null);
  }

  /** {@code private final Map<String, Sym> symbols}: the imported nodes made so far, by name. */
  static FieldSpec field() {
    return FieldSpec.builder(SYMBOLS, "symbols", Modifier.PRIVATE, Modifier.FINAL)
        .addJavadoc(
            "$L",
            Javadoc.member()
                .paragraph(
                    "The nodes of imported symbol files made so far, by name, and what they read.")
                .build())
        .initializer("new $T<>()", HashMap.class)
        .build();
  }

  /**
   * The statements of the method of {@code out}, an import's output: the nodes of its file that it
   * is the first (in build order) to need, then its own; {@code parts} receives the private methods
   * it calls.
   */
  CodeBlock body(CheckedNode out, List<MethodSpec> parts) {
    CodeBlock.Builder b = CodeBlock.builder();
    for (NodeSpec.Wire w : out.spec().origin().declared()) {
      b.addStatement("this.symbols.put($S, $N)", w.source(), w.parameterName());
    }
    List<CheckedNode> inner = m.imports().innerOf(out.name());
    if (inner.size() <= PART) {
      inner.forEach(n -> b.add(put(n)));
    } else {
      for (int from = 0; from < inner.size(); from += PART) {
        List<CheckedNode> part = inner.subList(from, Math.min(inner.size(), from + PART));
        String name = methods.newName(out.name() + "Part" + (from / PART + 1));
        b.addStatement("$N()", name);
        parts.add(part(name, out, part));
      }
    }
    if (out.freezes()) {
      b.addStatement("this.builder.freeze($L)", names.source(out.name()));
    }
    if (m.imports().readInside().contains(out.name())) {
      b.addStatement("this.symbols.put($S,$W$L)", out.name(), call(out));
      b.addStatement("return this.symbols.get($S)", out.name());
    } else {
      b.addStatement("return $L", call(out));
    }
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
            + "}, each kept in {@link #symbols} under its name.";
    MethodSpec.Builder b =
        MethodSpec.methodBuilder(name)
            .addModifiers(Modifier.PRIVATE)
            .addJavadoc("$L", Javadoc.member().paragraph(doc).build());
    part.forEach(n -> b.addCode(put(n)));
    return b.build();
  }

  /** {@code this.symbols.put("conv0", this.builder.node(...));}, after any freeze. */
  private CodeBlock put(CheckedNode n) {
    CodeBlock.Builder b = CodeBlock.builder();
    if (n.freezes()) {
      b.addStatement("this.builder.freeze($L)", names.source(n.name()));
    }
    return b.addStatement("this.symbols.put($S,$W$L)", n.name(), call(n)).build();
  }

  /** The builder call of {@code n}, reading its inputs from {@code symbols}. */
  private CodeBlock call(CheckedNode n) {
    List<String> in = new ArrayList<>();
    for (NodeSpec.Wire w : n.spec().wires()) {
      in.add(CodeBlock.of("this.symbols.get($S)", w.source()).toString());
    }
    return new CallFormatter(names, n, in).expression();
  }
}
