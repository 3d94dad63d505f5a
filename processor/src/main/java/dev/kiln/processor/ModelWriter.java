package dev.kiln.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XModel}: the typed model. It holds one {@code ModelRuntime} (graph, shared
 * parameters, executors cached per input shape) and gives it a typed face: one argument per
 * input, an {@code Outputs} record when there are several outputs, a {@code Gradients} record
 * with one gradient per input, and a {@code Params} view with one accessor per parameter.
 */
final class ModelWriter {
  private final CheckedModel m;
  private final ClassName type;
  private final ClassName graph;
  private final ClassName exec;
  private final ClassName outputs;
  private final ClassName gradients;
  private final ClassName params;
  private final List<String> inputNames;
  private final List<String> headNames;

  ModelWriter(CheckedModel model) {
    this.m = model;
    String pkg = model.spec().packageName();
    this.type = ClassName.get(pkg, model.name() + "Model");
    this.graph = GraphWriter.className(model);
    this.exec = ClassName.get(pkg, model.name() + "Exec");
    this.outputs = type.nestedClass("Outputs");
    this.gradients = type.nestedClass("Gradients");
    this.params = type.nestedClass("Params");
    NameAllocator args = new NameAllocator();
    // Locals and fields the generated forward and backward bodies use beside the arguments.
    args.newName("runtime");
    args.newName("out");
    args.newName("grads");
    this.inputNames = model.inputs().stream().map(n -> args.newName(n.name())).toList();
    this.headNames = model.outputs().stream()
        .map(n -> args.newName("d" + Names.capitalize(n.name()))).toList();
  }

  JavaFile write() {
    ClassName iface = ClassName.get(m.spec().element());
    String simple = type.simpleName();
    TypeSpec.Builder t = TypeSpec.classBuilder(type)
        .addOriginatingElement(m.spec().element())
        .addAnnotation(GraphWriter.generated())
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(AutoCloseable.class)
        .addJavadoc("The trainable {@link $T} model on MXNet.\n\n", iface)
        .addJavadoc("<p>Executors are bound per set of input shapes on first use and cached; all "
            + "of them share\none set of parameter and gradient arrays. Gradients add up over "
            + "{@link #backward} calls until\n{@link #update(float)} applies and zeroes them. "
            + "{@link #close()} frees every native handle.\n\n")
        .addJavadoc("<pre>\n$L</pre>\n", LayerTable.render(m));

    t.addField(FieldSpec.builder(String.class, "SUMMARY", Modifier.PRIVATE, Modifier.STATIC,
            Modifier.FINAL)
        .initializer("$S", m.name() + "\n" + LayerTable.render(m))
        .build());
    t.addField(Names.MODEL_RUNTIME, "runtime", Modifier.PRIVATE, Modifier.FINAL);
    t.addField(params, "params", Modifier.PRIVATE, Modifier.FINAL);
    t.addMethod(MethodSpec.constructorBuilder()
        .addModifiers(Modifier.PRIVATE)
        .addParameter(Names.MODEL_RUNTIME, "runtime")
        .addStatement("this.runtime = runtime")
        .addStatement("this.params = new $T(runtime)", params)
        .build());

    t.addMethod(MethodSpec.methodBuilder("create")
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(type)
        .addJavadoc("A new model on the CPU with Xavier-initialised weights, zero biases, seed "
            + "0.\n")
        .addStatement("return create($T.xavier(), 0L)", Names.INIT)
        .build());
    t.addMethod(MethodSpec.methodBuilder("create")
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(type)
        .addParameter(Names.INIT, "init")
        .addParameter(long.class, "seed")
        .addJavadoc("A new model whose weights {@code init} fills from {@code seed}; biases start "
            + "at zero.\nThe same seed gives the same parameters.\n")
        .addStatement("return new $T(new $T($S, $T.build(), init, seed))", type,
            Names.MODEL_RUNTIME, simple, graph)
        .build());
    t.addMethod(MethodSpec.methodBuilder("load")
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(type)
        .addParameter(Path.class, "prefix")
        .addJavadoc("Loads the checkpoint {@code prefix-0000.params} written by {@link #save}.\n"
            + "Every parameter must be present with its exact shape.\n")
        .addStatement("$T model = create($T.constant(0f), 0L)", type, Names.INIT)
        .beginControlFlow("try")
        .addStatement("model.runtime.loadParams(prefix)")
        .nextControlFlow("catch ($T e)", RuntimeException.class)
        .addStatement("model.close()")
        .addStatement("throw e")
        .endControlFlow()
        .addStatement("return model")
        .build());

    t.addMethod(forward());
    t.addMethod(backward());
    t.addMethod(MethodSpec.methodBuilder("update")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(float.class, "learningRate")
        .addJavadoc("One step of plain SGD ({@code sgd_update}, in place) with the accumulated "
            + "gradients, which are\nthen zeroed.\n")
        .addStatement("runtime.update(learningRate)")
        .build());
    t.addMethod(MethodSpec.methodBuilder("update")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(Names.OPTIMIZER, "optimizer")
        .addJavadoc("One step of {@code optimizer} with the accumulated gradients, which are "
            + "then zeroed.\n")
        .addStatement("runtime.update(optimizer)")
        .build());
    t.addMethod(MethodSpec.methodBuilder("isTraining")
        .addModifiers(Modifier.PUBLIC)
        .returns(boolean.class)
        .addJavadoc("Whether {@link #forward} runs in training mode; inference is the "
            + "default.\n")
        .addStatement("return runtime.isTraining()")
        .build());
    t.addMethod(MethodSpec.methodBuilder("setTraining")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(boolean.class, "training")
        .addJavadoc("Chooses training or inference mode for the next forward passes; "
            + "{@link #backward} needs a\nforward pass run in training mode.\n")
        .addStatement("runtime.setTraining(training)")
        .build());
    t.addMethod(MethodSpec.methodBuilder("params")
        .addModifiers(Modifier.PUBLIC)
        .returns(params)
        .addJavadoc("Typed access to every parameter and auxiliary state.\n")
        .addStatement("return params")
        .build());
    t.addMethod(execMethod());
    if (m.classifierHead() != null) {
      t.addMethod(MethodSpec.methodBuilder("classifier")
          .addModifiers(Modifier.PUBLIC)
          .returns(Names.CLASSIFIER)
          .addJavadoc("The classifier view of this model: node {@code $L} trained as MXNet's "
              + "{@code SoftmaxOutput}\n(softmax with cross-entropy against a label) on this "
              + "model's own parameters.\n", m.classifierHead().name())
          .addStatement("return runtime.classifier($T::buildClassifier)", graph)
          .build());
    }
    t.addMethod(MethodSpec.methodBuilder("save")
        .addModifiers(Modifier.PUBLIC)
        .addParameter(Path.class, "prefix")
        .addJavadoc("Writes an MXNet checkpoint, {@code prefix-symbol.json} and {@code "
            + "prefix-0000.params}, each\nfile atomically.\n")
        .addStatement("runtime.save(prefix)")
        .build());
    t.addMethod(MethodSpec.methodBuilder("symbolJson")
        .addModifiers(Modifier.PUBLIC)
        .returns(String.class)
        .addJavadoc("The model's MXNet symbol as JSON.\n")
        .addStatement("return runtime.symbolJson()")
        .build());
    t.addMethod(MethodSpec.methodBuilder("summary")
        .addModifiers(Modifier.PUBLIC)
        .returns(String.class)
        .addJavadoc("The layer table computed at compile time: node, layer, MXNet operator, "
            + "output shape,\nparameter count.\n")
        .addStatement("return SUMMARY")
        .build());
    t.addMethod(MethodSpec.methodBuilder("runtime")
        .addModifiers(Modifier.PUBLIC)
        .returns(Names.MODEL_RUNTIME)
        .addJavadoc("The untyped runtime behind this model, for training loops and tools.\n")
        .addStatement("return runtime")
        .build());
    t.addMethod(MethodSpec.methodBuilder("close")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .addJavadoc("Frees every executor, parameter and the graph. Using the model afterwards "
            + "throws\n{@link IllegalStateException}.\n")
        .addStatement("runtime.close()")
        .build());

    if (m.outputs().size() > 1) {
      t.addType(record(outputs, "The outputs of one forward pass, in declaration order.",
          m.outputs().stream().map(NodeSpec::name).toList(), "output"));
    }
    t.addType(record(gradients, "The gradients of the inputs from one backward pass.",
        m.inputs().stream().map(NodeSpec::name).toList(), "gradient of input"));
    t.addType(paramsType());
    return JavaFile.builder(m.spec().packageName(), t.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  private MethodSpec forward() {
    MethodSpec.Builder b = MethodSpec.methodBuilder("forward")
        .addModifiers(Modifier.PUBLIC)
        .addJavadoc("Runs the model on a batch, in the mode {@link #setTraining} chose.\n\n");
    for (int i = 0; i < inputNames.size(); i++) {
      NodeSpec in = m.inputs().get(i);
      b.addParameter(Names.NDARRAY, inputNames.get(i));
      b.addJavadoc("@param $L input {@code $L}, float32 of shape {@code $L}\n", inputNames.get(i),
          in.name(), m.shapes().get(in.name()));
    }
    String args = String.join(", ", inputNames);
    if (m.outputs().size() == 1) {
      NodeSpec out = m.outputs().get(0);
      b.returns(Names.NDARRAY)
          .addJavadoc("@return output {@code $L}, of shape {@code $L}\n", out.name(),
              m.shapes().get(out.name()))
          .addStatement("return runtime.forward($L)[0]", args);
    } else {
      b.returns(outputs)
          .addJavadoc("@return every output, in declaration order\n")
          .addStatement("$T[] out = runtime.forward($L)", Names.NDARRAY, args)
          .addStatement("return new $T($L)", outputs, indexed("out", m.outputs().size()));
    }
    return b.build();
  }

  private MethodSpec backward() {
    MethodSpec.Builder b = MethodSpec.methodBuilder("backward")
        .addModifiers(Modifier.PUBLIC)
        .returns(gradients)
        .addJavadoc("Back-propagates through the last forward pass, which must have run in "
            + "training mode.\nParameter gradients add up until the next update.\n\n");
    for (int i = 0; i < headNames.size(); i++) {
      NodeSpec out = m.outputs().get(i);
      b.addParameter(Names.NDARRAY, headNames.get(i));
      b.addJavadoc("@param $L gradient of the loss with respect to output {@code $L}, of its "
          + "shape\n", headNames.get(i), out.name());
    }
    b.addJavadoc("@return the gradient of every input\n");
    b.addStatement("$T[] grads = runtime.backward($L)", Names.NDARRAY,
        String.join(", ", headNames));
    b.addStatement("return new $T($L)", gradients, indexed("grads", m.inputs().size()));
    return b.build();
  }

  private MethodSpec execMethod() {
    MethodSpec.Builder b = MethodSpec.methodBuilder("exec")
        .addModifiers(Modifier.PUBLIC)
        .returns(exec)
        .addJavadoc("The executor bound for these input shapes (binding it on first use), with "
            + "its arrays as\nnamed fields. It belongs to this model and is freed by {@link "
            + "#close()}.\n\n");
    for (int i = 0; i < inputNames.size(); i++) {
      b.addParameter(Names.SHAPE, inputNames.get(i));
      b.addJavadoc("@param $L complete shape of input {@code $L}, accepted by {@code $L}\n",
          inputNames.get(i), m.inputs().get(i).name(),
          m.shapes().get(m.inputs().get(i).name()));
    }
    b.addJavadoc("@return the typed executor\n");
    b.addStatement("return new $T(runtime, runtime.executor($T.of($L)))", exec, List.class,
        String.join(", ", inputNames));
    return b.build();
  }

  private TypeSpec record(ClassName name, String doc, List<String> components, String what) {
    MethodSpec.Builder ctor = MethodSpec.constructorBuilder();
    TypeSpec.Builder r = TypeSpec.recordBuilder(name)
        .addModifiers(Modifier.PUBLIC)
        .addJavadoc(doc + "\n\n");
    NameAllocator names = new NameAllocator();
    for (String c : components) {
      String n = names.newName(c);
      ctor.addParameter(ParameterSpec.builder(Names.NDARRAY, n).build());
      r.addJavadoc("@param $L $L {@code $L}\n", n, what, c);
    }
    return r.recordConstructor(ctor.build()).build();
  }

  private TypeSpec paramsType() {
    TypeSpec.Builder p = TypeSpec.classBuilder(params)
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("Typed access to the parameters (and auxiliary states) of {@code $L}; reads "
            + "and writes go to\nthe arrays every executor shares.\n", m.name())
        .addField(Names.MODEL_RUNTIME, "runtime", Modifier.PRIVATE, Modifier.FINAL)
        .addMethod(MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PRIVATE)
            .addParameter(Names.MODEL_RUNTIME, "runtime")
            .addStatement("this.runtime = runtime")
            .build());
    NameAllocator names = new NameAllocator();
    names.newName("runtime");
    for (CheckedModel.ParamInfo info : m.allParams()) {
      NodeSpec node = m.spec().nodes().stream().filter(n -> n.name().equals(info.node()))
          .findFirst().orElseThrow();
      p.addMethod(MethodSpec.methodBuilder(names.newName(Names.camel(info.name())))
          .addModifiers(Modifier.PUBLIC)
          .returns(Names.PARAMETER)
          .addJavadoc("Parameter {@code $L} of node {@code $L} ({@code $L}), shape {@code $L}$L.\n",
              info.name(), node.name(), node.annotationText(), info.shape(),
              node.frozen() ? "; frozen: no update changes it" : "")
          .addStatement("return runtime.param($S)", info.name())
          .build());
    }
    for (CheckedModel.ParamInfo info : m.allAux()) {
      NodeSpec node = m.spec().nodes().stream().filter(n -> n.name().equals(info.node()))
          .findFirst().orElseThrow();
      p.addMethod(MethodSpec.methodBuilder(names.newName(Names.camel(info.name())))
          .addModifiers(Modifier.PUBLIC)
          .returns(Names.PARAMETER)
          .addJavadoc("Auxiliary state {@code $L} of node {@code $L} ({@code $L}), shape {@code "
              + "$L}: updated by\ntraining-mode forward passes, never by an optimizer; it has no "
              + "gradient.\n", info.name(), node.name(), node.annotationText(), info.shape())
          .addStatement("return runtime.auxState($S)", info.name())
          .build());
    }
    return p.build();
  }

  private static String indexed(String array, int n) {
    return java.util.stream.IntStream.range(0, n).mapToObj(i -> array + "[" + i + "]")
        .collect(Collectors.joining(", "));
  }

  static TypeName type(CheckedModel model) {
    return ClassName.get(model.spec().packageName(), model.name() + "Model");
  }
}
