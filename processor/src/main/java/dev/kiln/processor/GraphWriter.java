package dev.kiln.processor;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XGraph}: the class that implements the model interface, one method per node
 * emitting that node's MXNet operators through the runtime's {@code GraphBuilder}, plus the
 * inferred shape of every node and parameter as constants and where each node was declared.
 */
final class GraphWriter {
  private final CheckedModel m;
  private final ClassName type;
  private final NameAllocator constants = new NameAllocator();
  private final Map<String, String> shapeConstant = new java.util.HashMap<>();
  private final Map<String, String> sourceConstant = new java.util.HashMap<>();

  GraphWriter(CheckedModel model) {
    this.m = model;
    this.type = ClassName.get(model.spec().packageName(), model.name() + "Graph");
    constants.newName("builder");
    for (NodeSpec n : model.spec().nodes()) {
      shapeConstant.put(n.name(), constants.newName(Names.constant(n.name()) + "_SHAPE"));
      for (CheckedModel.ParamInfo p : model.paramsOf(n.name())) {
        shapeConstant.put(p.name(), constants.newName(Names.constant(p.name()) + "_SHAPE"));
      }
      for (CheckedModel.ParamInfo a : model.auxOf(n.name())) {
        shapeConstant.put(a.name(), constants.newName(Names.constant(a.name()) + "_SHAPE"));
      }
    }
    for (NodeSpec n : model.spec().nodes()) {
      sourceConstant.put(n.name(), constants.newName(Names.constant(n.name()) + "_SOURCE"));
    }
  }

  static ClassName className(CheckedModel model) {
    return ClassName.get(model.spec().packageName(), model.name() + "Graph");
  }

  /** The name of the shape constant of node or parameter {@code name}. */
  String shapeConstant(String name) {
    return shapeConstant.get(name);
  }

  JavaFile write() {
    ClassName iface = ClassName.get(m.spec().element());
    TypeSpec.Builder t = TypeSpec.classBuilder(type)
        .addOriginatingElement(m.spec().element())
        .addAnnotation(generated())
        .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
        .addSuperinterface(iface)
        .addJavadoc("Builds the MXNet graph of {@link $T}: one method per node, each emitting its "
            + "MXNet operator\nnamed after the node.\n\n", iface)
        .addJavadoc("<p>Shapes were inferred at compile time; {@code BATCH} dimensions are fixed "
            + "when an executor\nis bound.\n\n<pre>\n$L</pre>\n", LayerTable.render(m));

    for (NodeSpec n : m.spec().nodes()) {
      t.addField(shapeField(shapeConstant.get(n.name()), m.shapes().get(n.name()),
          (n.isInput() ? "Declared shape of input {@code " : "Output shape of node {@code ")
              + n.name() + "}: {@code " + m.shapes().get(n.name()) + "}."));
      for (CheckedModel.ParamInfo p : m.paramsOf(n.name())) {
        t.addField(shapeField(shapeConstant.get(p.name()), p.shape(),
            "Shape of parameter {@code " + p.name() + "}: {@code " + p.shape() + "}."));
      }
      for (CheckedModel.ParamInfo a : m.auxOf(n.name())) {
        t.addField(shapeField(shapeConstant.get(a.name()), a.shape(),
            "Shape of auxiliary state {@code " + a.name() + "}: {@code " + a.shape() + "}."));
      }
    }
    for (NodeSpec n : m.spec().nodes()) {
      t.addField(FieldSpec.builder(Names.NODE_SOURCE, sourceConstant.get(n.name()),
              Modifier.PRIVATE, Modifier.STATIC, Modifier.FINAL)
          .initializer("new $T($S, $S, $S)", Names.NODE_SOURCE, n.name(),
              n.declaration(m.name()), n.annotationText())
          .build());
    }
    t.addField(Names.GRAPH_BUILDER, "builder", Modifier.PRIVATE, Modifier.FINAL);
    t.addMethod(MethodSpec.constructorBuilder()
        .addModifiers(Modifier.PRIVATE)
        .addParameter(Names.GRAPH_BUILDER, "builder")
        .addStatement("this.builder = builder")
        .build());
    t.addMethod(MethodSpec.methodBuilder("build")
        .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
        .returns(Names.GRAPH)
        .addJavadoc("Builds a new graph of {@code $L}; the caller owns it and must close it.\n",
            m.name())
        .addStatement("return build(new $T($S))", Names.GRAPH_BUILDER, m.name())
        .build());
    if (m.classifierHead() != null) {
      t.addMethod(MethodSpec.methodBuilder("buildClassifier")
          .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
          .returns(Names.GRAPH)
          .addJavadoc("Builds the graph for classifier training: node {@code $L} becomes MXNet's "
              + "{@code SoftmaxOutput}\nwith label variable {@code $L_label}. The caller owns "
              + "the graph and must close it.\n", m.classifierHead().name(),
              m.classifierHead().name())
          .addStatement("return build(new $T($S, true))", Names.GRAPH_BUILDER, m.name())
          .build());
    }
    t.addMethod(build());
    for (NodeSpec n : m.spec().nodes()) {
      t.addMethod(nodeMethod(n));
    }
    return JavaFile.builder(m.spec().packageName(), t.build())
        .addStaticImport(Names.DIM, "BATCH")
        .skipJavaLangImports(true)
        .indent("  ")
        .build();
  }

  private FieldSpec shapeField(String name, TShape shape, String doc) {
    return FieldSpec.builder(Names.SHAPE, name, Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .addJavadoc(doc + "\n")
        .initializer("$T.of($L)", Names.SHAPE, shape.asArguments())
        .build();
  }

  private MethodSpec build() {
    NameAllocator locals = new NameAllocator();
    locals.newName("builder");
    locals.newName("graph");
    for (NodeSpec n : m.order()) {
      locals.newName(n.name(), n.name());
    }
    MethodSpec.Builder b = MethodSpec.methodBuilder("build")
        .addModifiers(Modifier.PRIVATE, Modifier.STATIC)
        .returns(Names.GRAPH)
        .addParameter(Names.GRAPH_BUILDER, "builder")
        .addJavadoc("Calls every node method once, each after the nodes it reads.\n")
        .addStatement("$T graph = new $T(builder)", type, type);
    for (NodeSpec n : m.order()) {
      String args = n.wires().stream().map(w -> locals.get(w.source()))
          .collect(Collectors.joining(", "));
      b.addStatement("$T $N = graph.$N($L)", Names.SYM, locals.get(n.name()), n.name(), args);
    }
    String outs = m.outputs().stream().map(o -> locals.get(o.name()))
        .collect(Collectors.joining(", "));
    b.addStatement("return builder.build($T.of($L))", List.class, outs);
    return b.build();
  }

  private MethodSpec nodeMethod(NodeSpec n) {
    MethodSpec.Builder b = MethodSpec.methodBuilder(n.name())
        .addAnnotation(Override.class)
        .addModifiers(Modifier.PUBLIC)
        .returns(Names.SYM)
        .addJavadoc("Node {@code $L}: {@code $L}, output {@code $L}.\n", n.name(),
            n.annotationText(), m.shapes().get(n.name()));
    List<String> params = new ArrayList<>();
    for (NodeSpec.Wire w : n.wires()) {
      b.addParameter(ParameterSpec.builder(Names.SYM, w.parameterName()).build());
      params.add(w.parameterName());
    }
    String src = sourceConstant.get(n.name());
    if (n.frozen()) {
      b.addStatement("this.builder.freeze($L)", src);
    }
    b.addStatement("return $L", emit(n, src, params));
    return b.build();
  }

  private CodeBlock emit(NodeSpec n, String src, List<String> in) {
    LayerSpec layer = n.layer();
    String args = String.join(", ", in);
    if (layer instanceof LayerSpec.Input) {
      return CodeBlock.of("this.builder.input($L, $L)", src, shapeConstant.get(n.name()));
    }
    if (layer instanceof LayerSpec.Dense d) {
      return CodeBlock.of("this.builder.dense($L, $L, $L, $T.$L, $L, $L)", src, args, d.units(),
          Names.ACT, d.activation().name(), d.noBias(), d.flatten());
    }
    if (layer instanceof LayerSpec.Activation a) {
      return CodeBlock.of("this.builder.activation($L, $L, $T.$L)", src, args, Names.ACT,
          a.activation().name());
    }
    if (layer instanceof LayerSpec.Softmax s && n == m.classifierHead()) {
      return CodeBlock.of("this.builder.classifierHead($L, $L, $L)", src, args, s.axis());
    }
    if (layer instanceof LayerSpec.Softmax s) {
      return CodeBlock.of("this.builder.softmax($L, $L, $L)", src, args, s.axis());
    }
    if (layer instanceof LayerSpec.Flatten) {
      return CodeBlock.of("this.builder.flatten($L, $L)", src, args);
    }
    if (layer instanceof LayerSpec.Add) {
      return CodeBlock.of("this.builder.add($L, $L)", src, args);
    }
    if (layer instanceof LayerSpec.Concat c) {
      return CodeBlock.of("this.builder.concat($L, $L, $L)", src, c.axis(), args);
    }
    if (layer instanceof LayerSpec.Custom c) {
      return custom(n, src, c, in);
    }
    if (layer instanceof LayerSpec.Conv2D c) {
      return CodeBlock.of("this.builder.conv2d($L, $L, $L, $L, $L, $L, $L, $T.$L, $L)", src, args,
          c.filters(), ints(LayerSpec.pair(c.kernel())), ints(LayerSpec.pair(c.stride())),
          ints(LayerSpec.pair(c.pad())), ints(LayerSpec.pair(c.dilation())), Names.ACT,
          c.activation().name(), c.noBias());
    }
    if (layer instanceof LayerSpec.Pool p) {
      return CodeBlock.of("this.builder.$L($L, $L, $L, $L, $L)",
          p.type().equals("max") ? "maxPool" : "avgPool", src, args,
          ints(LayerSpec.pair(p.kernel())), ints(p.effectiveStride()),
          ints(LayerSpec.pair(p.pad())));
    }
    if (layer instanceof LayerSpec.GlobalAvgPool) {
      return CodeBlock.of("this.builder.globalAvgPool($L, $L)", src, args);
    }
    if (layer instanceof LayerSpec.Reshape r) {
      String shape = r.shape().stream().map(d -> d == -1 ? "BATCH" : d.toString())
          .collect(Collectors.joining(", "));
      return CodeBlock.of("this.builder.reshape($L, $L, $L)", src, args, shape);
    }
    if (layer instanceof LayerSpec.Dropout d) {
      return CodeBlock.of("this.builder.dropout($L, $L, $L)", src, args, d.rate());
    }
    if (layer instanceof LayerSpec.BatchNorm bn) {
      // MXNet takes BatchNorm's oneDNN path only for axis 1 as written, so -3 of a rank-4 input
      // goes out as 1 (its CPU fallback for other axes fails the backward pass of a oneDNN
      // convolution's output with "Check failed: !is_view").
      int rank = m.shapes().get(n.name()).rank();
      return CodeBlock.of("this.builder.batchNorm($L, $L, $L, $L, $L)", src, args, bn.eps(),
          bn.momentum(), bn.axis() < 0 ? bn.axis() + rank : bn.axis());
    }
    if (layer instanceof LayerSpec.LayerNorm ln) {
      return CodeBlock.of("this.builder.layerNorm($L, $L, $L, $L)", src, args, ln.axis(),
          ln.eps());
    }
    if (layer instanceof LayerSpec.Embedding e) {
      return CodeBlock.of("this.builder.embedding($L, $L, $L, $L)", src, args, e.inputDim(),
          e.outputDim());
    }
    throw new IllegalStateException("no code for " + layer);
  }

  /**
   * A custom layer: its parameters made by the builder, then one traced call of its forward
   * method: {@code builder.custom(SRC, "Affine", IN_SHAPE, OUT_SHAPE, x, List.of(params...),
   * (input, p) -> Affine.Forward.apply(input, p.get(0), p.get(1)))}.
   */
  private CodeBlock custom(NodeSpec n, String src, LayerSpec.Custom c, List<String> in) {
    NameAllocator names = new NameAllocator();
    in.forEach(names::newName);
    String x = names.newName("input");
    String p = names.newName("params");
    CodeBlock.Builder params = CodeBlock.builder();
    for (int i = 0; i < c.params().size(); i++) {
      LayerSpec.CustomParam cp = c.params().get(i);
      params.add(i == 0 ? "\n" : ",\n").add("this.builder.customParam($L, $S, $L, $L)", src,
          cp.name(), shapeConstant.get(n.name() + "_" + cp.name()), cp.zeros());
    }
    List<String> args = new ArrayList<>();
    args.add(x);
    for (LayerSpec.ForwardArg a : c.args()) {
      args.add(a.param() >= 0 ? p + ".get(" + a.param() + ")" : a.literal());
    }
    return CodeBlock.builder()
        .add("this.builder.custom($L, $S, $L, $L, $L,\n", src, c.layerName(),
            shapeConstant.get(n.wires().get(0).source()), shapeConstant.get(n.name()), in.get(0))
        .indent().indent()
        .add("$T.of($>$L$<),\n", List.class, params.build())
        .add("($L, $L) -> $T.$L($L))", x, p, ClassName.get(c.forwardType()), c.forwardMethod(),
            String.join(", ", args))
        .unindent().unindent()
        .build();
  }

  /** {@code new int[] {5, 5}}. */
  private static CodeBlock ints(int[] values) {
    return CodeBlock.of("new int[] {$L}", java.util.Arrays.stream(values)
        .mapToObj(Integer::toString).collect(Collectors.joining(", ")));
  }

  static AnnotationSpec generated() {
    return AnnotationSpec.builder(Names.GENERATED).addMember("value", "$S", Names.PROCESSOR)
        .build();
  }
}
