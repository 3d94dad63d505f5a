package dev.kiln.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.TypeSpec;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XExec}: one executor of the model, bound for one set of input shapes, with
 * every array it binds as a named field: inputs and their gradients, parameters and their
 * gradients (shared with every executor of the model), outputs and their head gradients.
 */
final class ExecWriter {
  private final CheckedModel m;
  private final ClassName type;

  ExecWriter(CheckedModel model) {
    this.m = model;
    this.type = ClassName.get(model.spec().packageName(), model.name() + "Exec");
  }

  JavaFile write() {
    ClassName modelType = ClassName.get(m.spec().packageName(), m.name() + "Model");
    TypeSpec.Builder t = TypeSpec.classBuilder(type)
        .addOriginatingElement(m.spec().element())
        .addAnnotation(GraphWriter.generated())
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addJavadoc("One MXNet executor of {@link $T}, bound for one set of input shapes, from "
            + "{@link $T#exec}.\n\n", ClassName.get(m.spec().element()), modelType)
        .addJavadoc("<p>Write inputs (and head gradients) into the arrays, call {@link #forward} "
            + "and {@link #backward},\nread outputs and gradients. Parameter arrays are the "
            + "model's own, shared by all its\nexecutors. The model owns this executor and its "
            + "arrays and frees them when closed.\n");
    NameAllocator names = new NameAllocator();
    names.newName("executor");
    MethodSpec.Builder ctor = MethodSpec.constructorBuilder()
        .addParameter(Names.MODEL_RUNTIME, "runtime")
        .addParameter(Names.BOUND_EXECUTOR, "executor")
        .addStatement("this.executor = executor");
    for (int i = 0; i < m.inputs().size(); i++) {
      String in = m.inputs().get(i).name();
      String field = names.newName(in);
      field(t, field, "Input {@code " + in + "}.");
      ctor.addStatement("this.$N = $T.input($S, executor, $L)", field, Names.EXEC_ARRAY, in, i);
      String grad = names.newName(in + "Grad");
      field(t, grad, "Gradient of input {@code " + in + "}, written by {@link #backward}.");
      ctor.addStatement("this.$N = $T.inputGrad($S, executor, $L)", grad, Names.EXEC_ARRAY,
          in + " gradient", i);
    }
    for (CheckedModel.ParamInfo p : m.allParams()) {
      String w = names.newName(Names.camel(p.name()));
      field(t, w, "Parameter {@code " + p.name() + "} " + p.shape() + ", shared by the model.");
      ctor.addStatement("this.$N = runtime.weightArray($S)", w, p.name());
      String g = names.newName(Names.camel(p.name()) + "Grad");
      field(t, g, "Accumulated gradient of {@code " + p.name() + "}, shared by the model.");
      ctor.addStatement("this.$N = runtime.gradArray($S)", g, p.name());
    }
    for (CheckedModel.ParamInfo a : m.allAux()) {
      String v = names.newName(Names.camel(a.name()));
      field(t, v, "Auxiliary state {@code " + a.name() + "} " + a.shape()
          + ", shared by the model.");
      ctor.addStatement("this.$N = runtime.auxArray($S)", v, a.name());
    }
    for (int i = 0; i < m.outputs().size(); i++) {
      String out = m.outputs().get(i).name();
      String o = names.newName(out);
      field(t, o, "Output {@code " + out + "} of the latest {@link #forward}, read-only.");
      ctor.addStatement("this.$N = $T.output($S, executor, $L)", o, Names.EXEC_ARRAY, out, i);
      String h = names.newName(out + "HeadGrad");
      field(t, h, "Head gradient for output {@code " + out + "}, read by {@link #backward}.");
      ctor.addStatement("this.$N = $T.headGrad($S, executor, $L)", h, Names.EXEC_ARRAY,
          out + " head gradient", i);
    }
    t.addField(Names.BOUND_EXECUTOR, "executor", Modifier.PRIVATE, Modifier.FINAL);
    t.addMethod(ctor.build());
    t.addMethod(MethodSpec.methodBuilder("forward")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(boolean.class, "train")
        .addJavadoc("Runs the forward pass over the input arrays, in training mode if {@code "
            + "train}.\n")
        .addStatement("executor.forward(train)")
        .build());
    t.addMethod(MethodSpec.methodBuilder("backward")
        .addModifiers(Modifier.PUBLIC)
        .addJavadoc("Runs the backward pass with the head-gradient arrays; parameter gradients "
            + "add up.\n")
        .addStatement("executor.backward()")
        .build());
    return JavaFile.builder(m.spec().packageName(), t.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  private static void field(TypeSpec.Builder t, String name, String doc) {
    t.addField(FieldSpec.builder(Names.EXEC_ARRAY, name, Modifier.PUBLIC, Modifier.FINAL)
        .addJavadoc(doc + "\n")
        .build());
  }
}
