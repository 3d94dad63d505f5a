package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeSpec;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XModel.Params}: one typed accessor per parameter and auxiliary state, the gate
 * views of fused recurrent vectors, and the lists and lookup by name that {@code KilnModel}'s
 * {@code ModelParams} asks for.
 */
final class ParamsWriter {
  private final CheckedModel m;
  private final ClassName type;
  private final ClassName params;
  private final List<String> accessors;
  private final Map<String, String> gateViews;

  /**
   * A writer of {@code params}, nested in {@code type}, for {@code model}; {@code accessors} are
   * the accessors' names (parameters, then auxiliary states) and {@code gateViews} the gate views'
   * by node.
   */
  ParamsWriter(
      CheckedModel model,
      ClassName type,
      ClassName params,
      List<String> accessors,
      Map<String, String> gateViews) {
    this.m = model;
    this.type = type;
    this.params = params;
    this.accessors = accessors;
    this.gateViews = gateViews;
  }

  /** The {@code Params} class. */
  TypeSpec write() {
    TypeSpec.Builder p = paramsClass();
    List<ParamInfo> all = new ArrayList<>(m.allParams());
    int learnable = all.size();
    all.addAll(m.allAux());
    CodeBlock.Builder cases = CodeBlock.builder();
    if (!all.isEmpty()) {
      cases.add("return switch (name) {\n$>");
    }
    for (int i = 0; i < all.size(); i++) {
      ParamInfo info = all.get(i);
      CheckedNode node = m.owner(info);
      boolean aux = i >= learnable;
      String doc =
          aux
              ? "Auxiliary state {@code "
                  + info.name()
                  + "} of node {@code "
                  + node.name()
                  + "} "
                  + "({@code "
                  + node.spec().annotationText()
                  + "}), shape {@code "
                  + info.shape()
                  + "}: updated by training-mode forward passes, never by an optimizer; it has no "
                  + "gradient."
              : "Parameter {@code "
                  + info.name()
                  + "} of node {@code "
                  + node.name()
                  + "} ({@code "
                  + node.spec().annotationText()
                  + "}), shape {@code "
                  + info.shape()
                  + "}"
                  + (node.spec().frozen() ? "; frozen: no update changes it." : ".");
      p.addMethod(
          MethodSpec.methodBuilder(accessors.get(i))
              .addModifiers(Modifier.PUBLIC)
              .returns(Names.PARAMETER)
              .addJavadoc("$L", Javadoc.nestedMember().paragraph(doc).build())
              .addStatement("return runtime.$L($Z$S)", aux ? "auxState" : "param", info.name())
              .build());
      cases.add("case $S ->$W$N();\n", info.name(), accessors.get(i));
    }
    if (all.isEmpty()) {
      cases.addStatement(
          "throw new $T($W$S + name + $S)",
          IllegalArgumentException.class,
          type.simpleName() + " has no parameters, so none called '",
          "'");
    } else {
      cases.add(
          "default -> throw new $T($W$S + name + $S);\n",
          IllegalArgumentException.class,
          type.simpleName() + " has no parameter or auxiliary state '",
          "'");
      cases.add("$<};\n");
    }
    return paramsGates(p, all, learnable, cases);
  }

  /** The {@code Params} class with its field and constructor. */
  private TypeSpec.Builder paramsClass() {
    return TypeSpec.classBuilder(params)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .addSuperinterface(Names.MODEL_PARAMS)
        .addJavadoc(
            "$L",
            Javadoc.member()
                .paragraph(
                    "Typed access to the parameters (and "
                        + "auxiliary states) of {@code "
                        + m.name()
                        + "}; reads and writes go to the arrays "
                        + "every executor shares.")
                .build())
        .addField(Names.MODEL_RUNTIME, "runtime", Modifier.PRIVATE, Modifier.FINAL)
        .addMethod(
            MethodSpec.constructorBuilder()
                .addModifiers(Modifier.PRIVATE)
                .addParameter(Names.MODEL_RUNTIME, "runtime")
                .addStatement("this.runtime = runtime")
                .build());
  }

  /** The gate views of {@code Params}, then its lists. */
  private TypeSpec paramsGates(
      TypeSpec.Builder p, List<ParamInfo> all, int learnable, CodeBlock.Builder cases) {
    for (CheckedNode n : m.nodes()) {
      if (n.gateViews()) {
        String vector = n.params().get(0).name();
        p.addMethod(
            MethodSpec.methodBuilder(gateViews.get(n.name()))
                .addModifiers(Modifier.PUBLIC)
                .returns(Names.RECURRENT_PARAMETER)
                .addJavadoc(
                    "$L",
                    Javadoc.nestedMember()
                        .paragraph(
                            "Parameter {@code "
                                + vector
                                + "} of node {@code "
                                + n.name()
                                + "} ({@code "
                                + n.spec().annotationText()
                                + "}) gate by gate: the weights and biases of one "
                                + "layer, direction and gate, each in its own shape.")
                        .build())
                .addStatement("return runtime.recurrent($S)", vector)
                .build());
      }
    }
    return paramsLists(p, all, learnable, cases);
  }

  /** {@code parameters()}, {@code auxiliaryStates()} and {@code get(name)} of {@code Params}. */
  private TypeSpec paramsLists(
      TypeSpec.Builder p, List<ParamInfo> all, int learnable, CodeBlock.Builder cases) {
    ClassName parameter = Names.PARAMETER;
    p.addMethod(
        MethodSpec.methodBuilder("parameters")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(ParameterizedTypeName.get(ClassName.get(List.class), parameter))
            .addJavadoc(
                "$L",
                Javadoc.nestedMember()
                    .paragraph("The learnable parameters, in MXNet's " + "argument order.")
                    .build())
            .addStatement(
                "return runtime.slots().stream().map(s -> runtime.param(s.name()))" + "$Z.toList()")
            .build());
    p.addMethod(
        MethodSpec.methodBuilder("auxiliaryStates")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(ParameterizedTypeName.get(ClassName.get(List.class), parameter))
            .addJavadoc(
                "$L",
                Javadoc.nestedMember()
                    .paragraph("The auxiliary states, in MXNet's " + "order.")
                    .build())
            .addStatement(
                "return runtime.auxSlots().stream().map(a -> runtime.auxState(a.name()))"
                    + "$Z.toList()")
            .build());
    p.addMethod(
        MethodSpec.methodBuilder("get")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(parameter)
            .addParameter(String.class, "name")
            .addJavadoc(
                "$L",
                Javadoc.nestedMember()
                    .paragraph(
                        "The parameter or auxiliary state "
                            + "called {@code name}, e.g. {@code "
                            + (all.isEmpty() ? "hidden_weight" : all.get(0).name())
                            + "}.")
                    .param("name", "MXNet's name for it")
                    .returns("typed access to it")
                    .throwsTag("IllegalArgumentException", "if the model has none of that name")
                    .build())
            .addCode(cases.build())
            .build());
    return p.build();
  }
}
