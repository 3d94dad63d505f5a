package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.Modifier;

/**
 * What {@code XModel} has when the model imports symbol files ({@code @Imported}): {@code
 * loadImported(Path)}, which reads the imported nodes' parameters from the {@code .params} file
 * published with the symbol, and the two lists of names it checks the file against.
 */
final class ImportParamsWriter {
  private ImportParamsWriter() {}

  /** Adds the lists and the method to {@code t}, the model class of {@code m}, if it imports. */
  static void add(TypeSpec.Builder t, CheckedModel m) {
    Set<String> imported = new LinkedHashSet<>();
    Set<String> cutAway = new LinkedHashSet<>();
    for (CheckedNode n : m.nodes()) {
      if (n.spec().origin() == null) {
        continue;
      }
      n.params().stream().map(ParamInfo::name).forEach(imported::add);
      n.aux().stream().map(ParamInfo::name).forEach(imported::add);
      cutAway.addAll(n.spec().origin().cutAway());
    }
    if (m.nodes().stream().noneMatch(n -> n.spec().origin() != null)) {
      return;
    }
    cutAway.removeAll(imported);
    Map<String, TShape> onnxInputs = new LinkedHashMap<>();
    boolean onnx = false;
    for (CheckedNode n : m.nodes()) {
      if (n.spec().origin() != null && n.spec().origin().onnx()) {
        onnx = true;
        onnxInputs.putAll(n.spec().origin().onnxInputs());
      }
    }
    if (onnx) {
      addOnnx(t, imported, onnxInputs);
      return;
    }
    ParameterizedTypeName strings =
        ParameterizedTypeName.get(ClassName.get(List.class), ClassName.get(String.class));
    t.addField(
        FieldSpec.builder(strings, "IMPORTED", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "The parameters and auxiliary states of the imported nodes, which "
                            + "{@link #loadImported} reads.")
                    .build())
            .initializer("$T.of($L)", List.class, strings(imported))
            .build());
    t.addField(
        FieldSpec.builder(strings, "CUT_AWAY", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "The arrays of the imported files that none of the model's nodes has (of "
                            + "nodes the imports cut away), which {@link #loadImported} skips.")
                    .build())
            .initializer("$T.of($L)", List.class, strings(cutAway))
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("loadImported")
            .addModifiers(Modifier.PUBLIC)
            .returns(strings)
            .addParameter(Path.class, "params")
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "Loads the parameters and auxiliary states of the imported nodes from "
                            + "{@code params}, the {@code .params} file published with the symbol: "
                            + "keyed {@code arg:<name>} and {@code aux:<name>} as MXNet's Module API "
                            + "and Gluon's {@code export} save it, or by plain names as Gluon's {@code "
                            + "save_parameters} does. Every one must be there with its shape; arrays "
                            + "of nodes an import cut away are skipped, anything else is refused by "
                            + "name, and nothing changes unless all of that holds. The model's own "
                            + "nodes keep their values.")
                    .param("params", "the file")
                    .returns("the names of the arrays skipped")
                    .build())
            .addStatement("return runtime.loadImported(params, IMPORTED, CUT_AWAY)")
            .build());
  }

  /** The list, the input shapes and {@code loadImported} of a model that imports ONNX files. */
  private static void addOnnx(
      TypeSpec.Builder t, Set<String> imported, Map<String, TShape> onnxInputs) {
    ParameterizedTypeName strings =
        ParameterizedTypeName.get(ClassName.get(List.class), ClassName.get(String.class));
    ParameterizedTypeName shapes =
        ParameterizedTypeName.get(
            ClassName.get(Map.class), ClassName.get(String.class), Names.SHAPE);
    t.addField(
        FieldSpec.builder(strings, "IMPORTED", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "The parameters and auxiliary states of the imported nodes, which "
                            + "{@link #loadImported} reads: the ONNX file's initializers and "
                            + "constants, by their names.")
                    .build())
            .initializer("$T.of($L)", List.class, strings(imported))
            .build());
    CodeBlock.Builder entries = CodeBlock.builder();
    int i = 0;
    for (Map.Entry<String, TShape> e : onnxInputs.entrySet()) {
      entries.add(i++ == 0 ? "$Z" : ",$W");
      entries.add(
          "$T.entry($S, $T.of($L)$L)",
          Map.class,
          e.getKey(),
          Names.SHAPE,
          dims(e.getValue()),
          labels(e.getValue()));
    }
    t.addField(
        FieldSpec.builder(shapes, "ONNX_INPUTS", Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "The shapes the ONNX file's inputs were read with when the model compiled, "
                            + "by ONNX name: {@link #loadImported} reads the file with them again.")
                    .build())
            .initializer("$T.ofEntries($L)", Map.class, entries.build())
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("loadImported")
            .addModifiers(Modifier.PUBLIC)
            .returns(strings)
            .addParameter(Path.class, "onnx")
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "Loads the parameters and auxiliary states of the imported nodes from "
                            + "{@code onnx}, the ONNX file the model imports: its initializers, in "
                            + "the layout Kiln holds them, and the constants it computes. Every one "
                            + "must come out with the model's shape, and nothing changes unless all "
                            + "do. The model's own nodes keep their values.")
                    .param("onnx", "the {@code .onnx} file")
                    .returns("the names of the file's initializers no imported node reads")
                    .build())
            .addStatement("return runtime.loadOnnx(onnx, IMPORTED, ONNX_INPUTS)")
            .build());
  }

  /**
   * {@code Dim.BATCH, 1, 28, 28}: a shape's dimensions as Java source, a free size {@code
   * Shape.FREE}.
   */
  private static CodeBlock dims(TShape shape) {
    CodeBlock.Builder b = CodeBlock.builder();
    for (int k = 0; k < shape.rank(); k++) {
      int d = shape.dim(k);
      b.add(k == 0 ? "" : ", ");
      if (d == TShape.BATCH) {
        b.add("$T.BATCH", Names.DIM);
      } else if (d == TShape.STEPS) {
        b.add("$T.STEPS", Names.DIM);
      } else if (TShape.isFree(d)) {
        b.add("$T.FREE", Names.SHAPE);
      } else {
        b.add("$L", d);
      }
    }
    return b.build();
  }

  /**
   * {@code .free("H", "W")}: the expressions of a shape's free sizes, by which the runtime reads
   * the file again with the same dimensions; nothing for a shape without.
   */
  private static CodeBlock labels(TShape shape) {
    CodeBlock.Builder b = CodeBlock.builder();
    boolean first = true;
    for (int k = 0; k < shape.rank(); k++) {
      if (TShape.isFree(shape.dim(k))) {
        b.add(first ? ".free($S" : ", $S", shape.size(k).toString());
        first = false;
      }
    }
    return first ? b.build() : b.add(")").build();
  }

  /** {@code "a", "b"}, one wrapping point after each comma. */
  private static CodeBlock strings(Set<String> values) {
    CodeBlock.Builder b = CodeBlock.builder();
    int i = 0;
    for (String v : values) {
      b.add(i++ == 0 ? "$Z$S" : ",$W$S", v);
    }
    return b.build();
  }
}
