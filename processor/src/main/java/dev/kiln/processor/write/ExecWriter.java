package dev.kiln.processor.write;

import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.TypeSpec;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.processor.model.CheckedModel;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XExec}: one executor of the model, bound for one set of input shapes, with every
 * array it binds as a named field: inputs and their gradients, parameters and their gradients
 * (shared with every executor of the model), outputs and their head gradients.
 */
final class ExecWriter {
  private final CheckedModel m;
  private final GeneratedNames names;

  /** A writer for {@code model}, with the names the three generated classes share. */
  ExecWriter(CheckedModel model, GeneratedNames names) {
    this.m = model;
    this.names = names;
  }

  /** The generated file. */
  JavaFile write() {
    TypeSpec.Builder t = typeHeader();
    NameAllocator fields = new NameAllocator();
    fields.newName("executor");
    MethodSpec.Builder ctor =
        MethodSpec.constructorBuilder()
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "Names the arrays that {@code executor} "
                            + "binds and the model's shared ones; {@link "
                            + names.model.simpleName()
                            + "#exec} makes it.")
                    .param("runtime", "the model's runtime, which owns the shared arrays")
                    .param("executor", "the executor bound for one set of input shapes")
                    .build())
            .addParameter(Names.MODEL_RUNTIME, "runtime")
            .addParameter(Names.BOUND_EXECUTOR, "executor")
            .addStatement("this.executor = executor");
    for (int i = 0; i < m.inputs().size(); i++) {
      String in = m.inputs().get(i).name();
      String field = fields.newName(in);
      field(t, field, "Input {@code " + in + "}.");
      ctor.addStatement("this.$N =$W$T.input($S,$Wexecutor,$W$L)", field, Names.EXEC_ARRAY, in, i);
      String grad = fields.newName(in + "Grad");
      field(t, grad, "Gradient of input {@code " + in + "}, written by {@link #backward}.");
      ctor.addStatement(
          "this.$N =$W$T.inputGrad($S,$Wexecutor,$W$L)",
          grad,
          Names.EXEC_ARRAY,
          in + " gradient",
          i);
    }
    for (ParamInfo p : m.allParams()) {
      String w = fields.newName(Names.camel(p.name()));
      field(t, w, "Parameter {@code " + p.name() + "} " + p.shape() + ", shared by the model.");
      ctor.addStatement("this.$N =$Wruntime.weightArray($S)", w, p.name());
      String g = fields.newName(Names.camel(p.name()) + "Grad");
      field(t, g, "Accumulated gradient of {@code " + p.name() + "}, shared by the model.");
      ctor.addStatement("this.$N =$Wruntime.gradArray($S)", g, p.name());
    }
    for (ParamInfo a : m.allAux()) {
      String v = fields.newName(Names.camel(a.name()));
      field(
          t, v, "Auxiliary state {@code " + a.name() + "} " + a.shape() + ", shared by the model.");
      ctor.addStatement("this.$N =$Wruntime.auxArray($S)", v, a.name());
    }
    for (int i = 0; i < m.outputs().size(); i++) {
      String out = m.outputs().get(i).name();
      String o = fields.newName(out);
      field(t, o, "Output {@code " + out + "} of the latest {@link #forward}, read-only.");
      ctor.addStatement("this.$N =$W$T.output($S,$Wexecutor,$W$L)", o, Names.EXEC_ARRAY, out, i);
      String h = fields.newName(out + "HeadGrad");
      field(t, h, "Head gradient for output {@code " + out + "}, read by {@link #backward}.");
      ctor.addStatement(
          "this.$N =$W$T.headGrad($S,$Wexecutor,$W$L)",
          h,
          Names.EXEC_ARRAY,
          out + " head gradient",
          i);
    }
    t.addField(Names.BOUND_EXECUTOR, "executor", Modifier.PRIVATE, Modifier.FINAL);
    t.addMethod(ctor.build());
    addPasses(t);
    return JavaFile.builder(m.packageName(), t.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  /** {@code forward(train)} and {@code backward()}. */
  private void addPasses(TypeSpec.Builder t) {
    t.addMethod(
        MethodSpec.methodBuilder("forward")
            .addModifiers(Modifier.PUBLIC)
            .addParameter(boolean.class, "train")
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "Runs the forward pass over the input "
                            + "arrays, in training mode if {@code train}.")
                    .param("train", "true for training mode")
                    .build())
            .addStatement("executor.forward(train)")
            .build());
    t.addMethod(
        MethodSpec.methodBuilder("backward")
            .addModifiers(Modifier.PUBLIC)
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "Runs the backward pass with the "
                            + "head-gradient arrays; parameter gradients add up.")
                    .build())
            .addStatement("executor.backward()")
            .build());
  }

  /** The class and its Javadoc. */
  private TypeSpec.Builder typeHeader() {
    Javadoc doc =
        Javadoc.type()
            .paragraph(
                "One MXNet executor of {@link "
                    + m.name()
                    + "}, bound for one set of input "
                    + "shapes, from {@link "
                    + names.model.simpleName()
                    + "#exec}.")
            .paragraph(
                "Write inputs (and head gradients) into the arrays, call {@link #forward} and "
                    + "{@link #backward}, read outputs and gradients. Parameter arrays are the model's "
                    + "own, shared by all its executors. The model owns this executor and its arrays "
                    + "and frees them when closed.");
    TypeSpec.Builder t =
        TypeSpec.classBuilder(names.exec)
            .addOriginatingElement(m.spec().element())
            .addAnnotation(Names.generated())
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addJavadoc("$L", doc.build());
    return t;
  }

  private static void field(TypeSpec.Builder t, String name, String doc) {
    t.addField(
        FieldSpec.builder(Names.EXEC_ARRAY, name, Modifier.PUBLIC, Modifier.FINAL)
            .addJavadoc("$L", Javadoc.member().paragraph(doc).build())
            .build());
  }
}
