package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.ParameterizedTypeName;
import com.palantir.javapoet.TypeName;
import com.palantir.javapoet.TypeSpec;
import dev.kiln.ops.LossOp;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XModel}: the typed model. It holds one {@code ModelRuntime} (graph, shared
 * parameters, executors cached per input shape) and gives it two faces: the runtime's {@code
 * KilnModel}, which every generated model implements so that tools take any of them, and a typed
 * one with one argument per input, an {@code Outputs} record when there are several outputs, a
 * {@code Gradients} record with one gradient per input, and a {@code Params} view with one accessor
 * per parameter. Its Javadoc carries the layer table, which {@code SUMMARY} holds too.
 */
final class ModelWriter {
  private final CheckedModel m;
  private final GeneratedNames names;
  private final ClassName type;
  private final ClassName outputs;
  private final ClassName gradients;
  private final ClassName params;
  private final List<String> inputNames;
  private final List<String> headNames;
  private final List<String> accessors = new ArrayList<>();
  private final Map<String, String> gateViews = new LinkedHashMap<>();

  /**
   * The methods of {@code Object}: no record component may be named like one, and a parameter
   * accessor (no arguments, returning {@code Parameter}) would clash with {@code hashCode()},
   * {@code toString()} and {@code getClass()}.
   */
  private static final List<String> OBJECT_METHODS =
      List.of(
          "clone",
          "equals",
          "finalize",
          "getClass",
          "hashCode",
          "notify",
          "notifyAll",
          "toString",
          "wait");

  /** A writer for {@code model}, with the names the three generated classes share. */
  ModelWriter(CheckedModel model, GeneratedNames names) {
    this.m = model;
    this.names = names;
    this.type = names.model;
    this.outputs = type.nestedClass("Outputs");
    this.gradients = type.nestedClass("Gradients");
    this.params = type.nestedClass("Params");
    NameAllocator args = new NameAllocator();
    // Locals and fields the generated forward and backward bodies use beside the arguments.
    args.newName("runtime");
    args.newName("out");
    args.newName("grads");
    this.inputNames = model.inputs().stream().map(n -> args.newName(n.name())).toList();
    this.headNames =
        model.outputs().stream().map(n -> args.newName("d" + Names.capitalize(n.name()))).toList();
    NameAllocator members = new NameAllocator();
    for (String reserved : List.of("runtime", "parameters", "auxiliaryStates", "get")) {
      members.newName(reserved);
    }
    OBJECT_METHODS.forEach(members::newName);
    for (ParamInfo p : model.allParams()) {
      accessors.add(members.newName(Names.camel(p.name())));
    }
    for (ParamInfo a : model.allAux()) {
      accessors.add(members.newName(Names.camel(a.name())));
    }
    for (CheckedNode n : model.nodes()) {
      if (n.gateViews()) {
        gateViews.put(n.name(), members.newName(Names.camel(n.name()) + "Gates"));
      }
    }
  }

  /** The generated file. */
  JavaFile write() {
    TypeSpec.Builder t = typeHeader();
    addConstants(t);
    addState(t);
    addFactories(t);
    ImportParamsWriter.add(t, m);
    addDescription(t);
    addPasses(t);
    addTraining(t);
    addNestedTypes(t);
    return JavaFile.builder(m.packageName(), t.build())
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  /** The class with its Javadoc: the layer table. */
  private TypeSpec.Builder typeHeader() {
    String simple = type.simpleName();
    Javadoc doc =
        Javadoc.type()
            .paragraph("The trainable {@link " + m.name() + "} model on MXNet.")
            .paragraph(
                "Executors are bound per set of input shapes on first use and cached; all of "
                    + "them share one set of parameter and gradient arrays. "
                    + (!m.cellsOverSteps().isEmpty()
                        ? "Its recurrent cell reads {@code STEPS} steps: the first "
                            + "executor of a new number of steps also unrolls a graph of its own for it, "
                            + "kept for that length, over the same parameters. "
                        : "")
                    + "Gradients add up over "
                    + "{@link #backward} calls until {@link #update(float)} applies and zeroes them. "
                    + "{@link #close()} frees every native handle.")
            .paragraph(
                "Its nodes as the processor checked them, with the output shape, parameter "
                    + "count and, per example, the forward FLOPs and output bytes of each ({@link "
                    + "#SUMMARY} holds the same table):")
            .pre(LayerTable.render(m));
    TypeSpec.Builder t =
        TypeSpec.classBuilder(type)
            .addOriginatingElement(m.spec().element())
            .addAnnotation(Names.generated())
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addSuperinterface(Names.KILN_MODEL)
            .addJavadoc("$L", doc.build());

    return t;
  }

  /** {@code SUMMARY}, {@code INPUTS} and {@code OUTPUTS}. */
  private void addConstants(TypeSpec.Builder t) {
    String simple = type.simpleName();
    t.addField(
        FieldSpec.builder(String.class, "SUMMARY", Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
            .addJavadoc(
                "$L",
                Javadoc.member()
                    .paragraph(
                        "The model's name and layer table, as "
                            + "{@link #summary()} returns them: a constant, so that tools can show it without "
                            + "creating a model, which starts MXNet.")
                    .build())
            .initializer("$L", TextBlocks.of(m.name() + "\n" + LayerTable.render(m)))
            .build());
    CodeBlock.Builder inputs = CodeBlock.builder();
    for (int i = 0; i < m.inputs().size(); i++) {
      CheckedNode in = m.inputs().get(i);
      String spec =
          "new InputSpec(\""
              + in.name()
              + "\", "
              + names.graph.simpleName()
              + "."
              + names.shape(in.name())
              + ")";
      // One input per line when they do not fit on one; an input too long for a line breaks.
      inputs
          .add(i == 0 ? "$Z" : ",$W")
          .add(
              spec.length() < 88 ? "new $T($S, $T.$N)" : "new $T($S,$W$T.$N)",
              Names.INPUT_SPEC,
              in.name(),
              names.graph,
              names.shape(in.name()));
    }
    t.addField(
        FieldSpec.builder(
                ParameterizedTypeName.get(ClassName.get(List.class), Names.INPUT_SPEC),
                "INPUTS",
                Modifier.PRIVATE,
                Modifier.STATIC,
                Modifier.FINAL)
            .initializer("$Z$T.of($L)", List.class, inputs.build())
            .build());
    t.addField(
        FieldSpec.builder(
                ParameterizedTypeName.get(List.class, String.class),
                "OUTPUTS",
                Modifier.PRIVATE,
                Modifier.STATIC,
                Modifier.FINAL)
            .initializer(
                "$Z$T.of($Z$L)",
                List.class,
                strings(m.outputs().stream().map(CheckedNode::name).toList()))
            .build());
  }

  /** The runtime and the typed parameters, the constructor and {@code create()}. */
  private void addState(TypeSpec.Builder t) {
    t.addField(Names.MODEL_RUNTIME, "runtime", Modifier.PRIVATE, Modifier.FINAL);
    t.addField(params, "params", Modifier.PRIVATE, Modifier.FINAL);
    t.addMethod(
        MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PRIVATE)
            .addParameter(Names.MODEL_RUNTIME, "runtime")
            .addStatement("this.runtime = runtime")
            .addStatement("this.params = new $T(runtime)", params)
            .build());

    t.addMethod(
        MethodSpec.methodBuilder("create")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(type)
            .addJavadoc(
                "$L",
                traced(
                        Javadoc.member()
                            .paragraph(
                                "A new model on the CPU with "
                                    + "Xavier-initialised weights, zero biases, seed 0.")
                            .returns("the model, which the caller must close"))
                    .build())
            .addStatement("return create($T.xavier(), 0L)", Names.INIT)
            .build());
  }

  /** {@code create(init, seed)}, the graph factories and {@code load}. */
  private void addFactories(TypeSpec.Builder t) {
    String simple = type.simpleName();
    t.addMethod(
        MethodSpec.methodBuilder("create")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(type)
            .addParameter(Names.INIT, "init")
            .addParameter(long.class, "seed")
            .addJavadoc(
                "$L",
                traced(
                        Javadoc.member()
                            .paragraph(
                                "A new model whose weights "
                                    + "{@code init} fills from {@code seed}; biases start at zero. The same seed gives "
                                    + "the same parameters.")
                            .param("init", "fills the weights")
                            .param("seed", "seeds {@code init}")
                            .returns("the model, which the caller must close"))
                    .build())
            .addStatement(
                "return new $T(new $T($S,$Wgraph(false),$Winit,$Wseed))",
                type,
                Names.MODEL_RUNTIME,
                simple)
            .build());
    addGraphFactories(t);
    t.addMethod(
        MethodSpec.methodBuilder("load")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(type)
            .addParameter(Path.class, "prefix")
            .addJavadoc(
                "$L",
                traced(
                        Javadoc.member()
                            .paragraph(
                                "Loads the checkpoint {@code "
                                    + "prefix-0000.params} written by {@link #save}. Every parameter must be present "
                                    + "with its exact shape.")
                            .param("prefix", "the checkpoint's path without {@code -0000.params}")
                            .returns("the model, which the caller must close"))
                    .build())
            .addStatement("$T model = create($T.constant(0f), 0L)", type, Names.INIT)
            .beginControlFlow("try")
            .addStatement("model.runtime.loadParams(prefix)")
            .nextControlFlow("catch ($T e)", RuntimeException.class)
            .addStatement("model.close()")
            .addStatement("throw e")
            .endControlFlow()
            .addStatement("return model")
            .build());
  }

  /** {@code graph(training)}, and {@code graph(training, steps)} for cells over STEPS. */
  private void addGraphFactories(TypeSpec.Builder t) {
    List<String> stepCells = m.cellsOverSteps();
    String graphDoc =
        "A new graph of {@code "
            + m.name()
            + "}, built by {@link "
            + names.graph.simpleName()
            + "}; with {@code training}, for training against labels (the head as its training "
            + "loss). The caller owns it.";
    if (stepCells.isEmpty()) {
      t.addMethod(
          graphMethod()
              .addJavadoc("$L", Javadoc.member().paragraph(graphDoc).build())
              .beginControlFlow(
                  "try ($T builder = new $T($S, training))",
                  Names.GRAPH_BUILDER,
                  Names.GRAPH_BUILDER,
                  m.name())
              .addStatement("return $T.build(builder)", names.graph)
              .endControlFlow()
              .build());
    } else {
      String cells =
          stepCells.size() == 1
              ? "the recurrent cell of node {@code " + stepCells.get(0) + "}"
              : "the recurrent cells of nodes {@code " + String.join("}, {@code ", stepCells) + "}";
      t.addMethod(
          graphMethod()
              .addJavadoc(
                  "$L",
                  Javadoc.member()
                      .paragraph(
                          graphDoc
                              + " It is unrolled over one step; executors bound for other numbers "
                              + "of steps unroll graphs of their own, over the same parameters.")
                      .build())
              .addStatement("return graph(training, 1)")
              .build());
      t.addMethod(
          graphMethod()
              .addParameter(int.class, "steps")
              .addJavadoc(
                  "$L",
                  Javadoc.member()
                      .paragraph(
                          "A new graph of {@code "
                              + m.name()
                              + "} for inputs of {@code steps} steps, "
                              + cells
                              + " unrolled over them; with {@code training}, for training against "
                              + "labels. The caller owns it.")
                      .build())
              .beginControlFlow(
                  "try ($T builder =$Wnew $T($S, training, steps, s -> graph(training, s)))",
                  Names.GRAPH_BUILDER,
                  Names.GRAPH_BUILDER,
                  m.name())
              .addStatement("return $T.build(builder)", names.graph)
              .endControlFlow()
              .build());
    }
  }

  /** {@code name()}, {@code inputs()} and {@code outputs()}. */
  private void addDescription(TypeSpec.Builder t) {
    String simple = type.simpleName();
    t.addMethod(
        override(
                "name",
                ClassName.get(String.class),
                "The generated class's simple name, {@code " + simple + "}.")
            .addStatement("return $S", simple)
            .build());
    t.addMethod(
        override(
                "inputs",
                ParameterizedTypeName.get(ClassName.get(List.class), Names.INPUT_SPEC),
                "The inputs in declaration order, with their declared shapes: "
                    + m.inputs().stream()
                        .map(n -> "{@code " + n.name() + " " + n.shape() + "}")
                        .collect(Collectors.joining(", "))
                    + ".")
            .addStatement("return INPUTS")
            .build());
    t.addMethod(
        override(
                "outputs",
                ParameterizedTypeName.get(List.class, String.class),
                "The names of the outputs in declaration order: "
                    + m.outputs().stream()
                        .map(n -> "{@code " + n.name() + "}")
                        .collect(Collectors.joining(", "))
                    + ".")
            .addStatement("return OUTPUTS")
            .build());
  }

  /**
   * The typed forward and backward passes; the untyped ones, the updates and the training mode are
   * {@code KilnModel}'s, the same for every model.
   */
  private void addPasses(TypeSpec.Builder t) {
    t.addMethod(forward());
    t.addMethod(backward());
  }

  /**
   * Parameters, executors, the heads, the summary and the runtime; saving and closing are {@code
   * KilnModel}'s.
   */
  private void addTraining(TypeSpec.Builder t) {
    String simple = type.simpleName();
    t.addMethod(
        override("params", params, "Typed access to every parameter and auxiliary " + "state.")
            .addStatement("return params")
            .build());
    t.addMethod(execMethod());
    t.addMethod(
        override(
                "isClassifier",
                TypeName.BOOLEAN,
                m.classifierHead() != null
                    ? "True: {@link #classifier()} trains the softmax {@code "
                        + m.classifierHead().name()
                        + "}."
                    : "False: "
                        + simple
                        + " is not a classifier, because "
                        + m.notClassifier()
                        + ".")
            .addStatement("return $L", m.classifierHead() != null)
            .build());
    t.addMethod(classifier());
    if (m.lossHead() != null) {
      t.addMethod(
          override(
                  "hasTrainer",
                  TypeName.BOOLEAN,
                  "True: {@link #trainer()} trains the loss head {@code "
                      + m.lossHead().name()
                      + "}.")
              .addStatement("return true")
              .build());
      t.addMethod(trainer());
    }
    t.addMethod(
        override(
                "summary",
                ClassName.get(String.class),
                "The model's name and the "
                    + "layer table computed at compile time: {@link #SUMMARY}.")
            .addStatement("return SUMMARY")
            .build());
    t.addMethod(
        override(
                "runtime",
                Names.MODEL_RUNTIME,
                "The untyped runtime behind this " + "model, for training loops and tools.")
            .addStatement("return runtime")
            .build());
  }

  /** The state methods and record, {@code Outputs}, {@code Gradients} and {@code Params}. */
  private void addNestedTypes(TypeSpec.Builder t) {
    List<CheckedNode.CarriedState> states = statefulStates();
    if (!states.isEmpty()) {
      new StateWriter(type).addTo(t, states);
    }
    if (m.outputs().size() > 1) {
      t.addType(
          record(
              outputs,
              "The outputs of one forward pass, in declaration order.",
              m.outputs().stream().map(CheckedNode::name).toList(),
              "output"));
    }
    t.addType(
        record(
            gradients,
            "The gradients of the inputs from one backward pass.",
            m.inputs().stream().map(CheckedNode::name).toList(),
            "gradient of input"));
    t.addType(new ParamsWriter(m, type, params, accessors, gateViews).write());
  }

  /**
   * The state arguments of the stateful recurrent layers, in node order: {@code <node>_state} and,
   * for an LSTM, {@code <node>_state_cell}.
   */
  private List<CheckedNode.CarriedState> statefulStates() {
    return m.nodes().stream().flatMap(n -> n.carriedStates().stream()).toList();
  }

  /**
   * {@code doc} with, for a model with custom layers, what only building the graph can tell: a
   * forward body that does not fit the shapes its layer declares.
   */
  private Javadoc traced(Javadoc doc) {
    List<String> layers =
        m.nodes().stream()
            .filter(n -> n.spec().layer().tracedAtBuild())
            .map(n -> "{@code " + n.spec().annotationText() + "} (node {@code " + n.name() + "})")
            .toList();
    if (layers.isEmpty()) {
      return doc;
    }
    return doc.throwsTag(
        "dev.kiln.runtime.graph.ModelException",
        "if the forward body of "
            + "custom layer "
            + String.join(", ", layers)
            + " does not fit the shapes it declares, "
            + "which only tracing it when the graph is built can tell");
  }

  /** A public method of {@code KilnModel} without parameters, documented by {@code doc}. */
  private static MethodSpec.Builder override(String name, TypeName returns, String doc) {
    return MethodSpec.methodBuilder(name)
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(returns)
        .addJavadoc("$L", Javadoc.member().paragraph(doc).build());
  }

  private MethodSpec forward() {
    Javadoc doc =
        Javadoc.member()
            .paragraph("Runs the model on a batch, in the mode {@link " + "#setTraining} chose.");
    MethodSpec.Builder b = MethodSpec.methodBuilder("forward").addModifiers(Modifier.PUBLIC);
    for (int i = 0; i < inputNames.size(); i++) {
      CheckedNode in = m.inputs().get(i);
      b.addParameter(Names.NDARRAY, inputNames.get(i));
      doc.param(
          inputNames.get(i),
          "input {@code " + in.name() + "}, float32 of shape {@code " + in.shape() + "}");
    }
    CodeBlock args = commas(inputNames);
    if (m.outputs().size() == 1) {
      CheckedNode out = m.outputs().get(0);
      b.returns(Names.NDARRAY).addStatement("return runtime.forward($L)[0]", args);
      doc.returns("output {@code " + out.name() + "}, of shape {@code " + out.shape() + "}");
    } else {
      b.returns(outputs)
          .addStatement("$T[] out = runtime.forward($L)", Names.NDARRAY, args)
          .addStatement("return new $T($L)", outputs, indexed("out", m.outputs().size()));
      doc.returns("every output, in declaration order");
    }
    return b.addJavadoc("$L", doc.build()).build();
  }

  private MethodSpec backward() {
    Javadoc doc =
        Javadoc.member()
            .paragraph(
                "Back-propagates through the last forward pass, "
                    + "which must have run in training mode. Parameter gradients add up until the next "
                    + "update.");
    MethodSpec.Builder b =
        MethodSpec.methodBuilder("backward").addModifiers(Modifier.PUBLIC).returns(gradients);
    for (int i = 0; i < headNames.size(); i++) {
      CheckedNode out = m.outputs().get(i);
      b.addParameter(Names.NDARRAY, headNames.get(i));
      doc.param(
          headNames.get(i),
          "gradient of the loss with respect to output {@code " + out.name() + "}, of its shape");
    }
    doc.returns("the gradient of every input");
    b.addStatement("$T[] grads = runtime.backward($L)", Names.NDARRAY, commas(headNames));
    b.addStatement("return new $T($L)", gradients, indexed("grads", m.inputs().size()));
    return b.addJavadoc("$L", doc.build()).build();
  }

  private MethodSpec execMethod() {
    Javadoc doc =
        Javadoc.member()
            .paragraph(
                "The executor bound for these input shapes "
                    + "(binding it on first use), with its arrays as named fields. It belongs to this model "
                    + "and is freed by {@link #close()}.");
    MethodSpec.Builder b =
        MethodSpec.methodBuilder("exec").addModifiers(Modifier.PUBLIC).returns(names.exec);
    for (int i = 0; i < inputNames.size(); i++) {
      CheckedNode in = m.inputs().get(i);
      b.addParameter(Names.SHAPE, inputNames.get(i));
      doc.param(
          inputNames.get(i),
          "complete shape of input {@code "
              + in.name()
              + "}, accepted by {@code "
              + in.shape()
              + "}");
    }
    doc.returns("the typed executor");
    b.addStatement(
        "return new $T(runtime,$Wruntime.executor($T.of($L)))",
        names.exec,
        List.class,
        commas(inputNames));
    return b.addJavadoc("$L", doc.build()).build();
  }

  /** {@code trainer()} of a model whose only output is a loss head. */
  private MethodSpec trainer() {
    LossOp.Kind kind = m.lossKind();
    return MethodSpec.methodBuilder("trainer")
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(Names.TRAINER)
        .addJavadoc(
            "$L",
            Javadoc.member()
                .paragraph(
                    "The trainer of this model: node {@code "
                        + m.lossHead().name()
                        + "} ({@code @"
                        + kind.annotation
                        + "}) trained as MXNet's {@code MakeLoss} against targets on this model's "
                        + "own parameters.")
                .build())
        .addStatement(
            "return runtime.trainer($T.Kind.$L, () -> graph(true))", LossOp.class, kind.name())
        .build();
  }

  private MethodSpec classifier() {
    MethodSpec.Builder b =
        MethodSpec.methodBuilder("classifier")
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(Names.CLASSIFIER);
    if (m.classifierHead() != null) {
      return b.addJavadoc(
              "$L",
              Javadoc.member()
                  .paragraph(
                      "The classifier view of this model: "
                          + "node {@code "
                          + m.classifierHead().name()
                          + "} trained as MXNet's {@code "
                          + "SoftmaxOutput} (softmax with cross-entropy against a label) on this model's "
                          + "own parameters.")
                  .build())
          .addStatement("return runtime.classifier(() -> graph(true))")
          .build();
    }
    String why = type.simpleName() + " is not a classifier: " + m.notClassifier();
    return b.addJavadoc(
            "$L",
            Javadoc.member()
                .paragraph("Not available: " + why + ".")
                .throwsTag("UnsupportedOperationException", "always")
                .build())
        .addStatement(
            "throw new $T($W$L)", UnsupportedOperationException.class, Literals.string(why))
        .build();
  }

  private TypeSpec record(ClassName name, String doc, List<String> components, String what) {
    MethodSpec.Builder ctor = MethodSpec.constructorBuilder();
    Javadoc javadoc = Javadoc.member().paragraph(doc);
    NameAllocator allocator = new NameAllocator();
    OBJECT_METHODS.forEach(allocator::newName);
    for (String c : components) {
      String n = allocator.newName(c);
      ctor.addParameter(ParameterSpec.builder(Names.NDARRAY, n).build());
      javadoc.param(
          n,
          what
              + " {@code "
              + c
              + "}"
              + (n.equals(c) ? "" : " (a record component cannot be named " + c + ")"));
    }
    return TypeSpec.recordBuilder(name)
        .addModifiers(Modifier.PUBLIC)
        .addJavadoc("$L", javadoc.build())
        .recordConstructor(ctor.build())
        .build();
  }

  private static CodeBlock strings(List<String> values) {
    CodeBlock.Builder b = CodeBlock.builder();
    for (int i = 0; i < values.size(); i++) {
      b.add(i == 0 ? "$S" : ",$W$S", values.get(i));
    }
    return b.build();
  }

  private static CodeBlock indexed(String array, int n) {
    return commas(IntStream.range(0, n).mapToObj(i -> array + "[" + i + "]").toList());
  }

  /** {@code a, b, c} with a wrapping point after each comma. */
  private static CodeBlock commas(List<String> items) {
    CodeBlock.Builder b = CodeBlock.builder();
    for (int i = 0; i < items.size(); i++) {
      b.add(i == 0 ? "$L" : ",$W$L", items.get(i));
    }
    return b.build();
  }

  /** The head of the private static {@code graph(boolean training, ...)} factories. */
  private static MethodSpec.Builder graphMethod() {
    return MethodSpec.methodBuilder("graph")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(Names.GRAPH)
        .addParameter(boolean.class, "training");
  }
}
