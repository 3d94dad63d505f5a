package dev.kiln.processor.write;

import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.FieldSpec;
import com.palantir.javapoet.JavaFile;
import com.palantir.javapoet.MethodSpec;
import com.palantir.javapoet.NameAllocator;
import com.palantir.javapoet.ParameterSpec;
import com.palantir.javapoet.TypeSpec;
import dev.kiln.ops.InputOp;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.Requirement;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.model.BlockSpec;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.FreeDimSpec;
import dev.kiln.processor.model.NodeSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.Modifier;

/**
 * Writes {@code XGraph}: the class that implements the model interface, one method per node
 * emitting that node's MXNet operators through the runtime's {@code GraphBuilder}, plus the
 * inferred shape of every node and parameter as constants and where each node was declared.
 */
final class GraphWriter {
  private final CheckedModel m;
  private final GeneratedNames names;

  /** A writer for {@code model}, with the names the three generated classes share. */
  GraphWriter(CheckedModel model, GeneratedNames names) {
    this.m = model;
    this.names = names;
  }

  /** The generated file. */
  JavaFile write() {
    TypeSpec.Builder t = typeHeader();
    for (CheckedNode n : m.nodes()) {
      if (n.spec().importedInner()) {
        continue; // an imported file's node: its shapes are in the layer table
      }
      TShape shape = n.spec().layer() instanceof InputOp in ? in.shape() : n.shape();
      t.addField(shapeField(names.shape(n.name()), shape, shapeDoc(n)));
      if (n.spec().origin() != null) {
        continue;
      }
      for (ParamInfo p : n.params()) {
        t.addField(
            shapeField(
                names.shape(p.name()),
                p.shape(),
                "Shape of parameter {@code " + p.name() + "}: {@code " + p.shape() + "}."));
      }
      for (ParamInfo a : n.aux()) {
        t.addField(
            shapeField(
                names.shape(a.name()),
                a.shape(),
                "Shape of auxiliary state {@code " + a.name() + "}: {@code " + a.shape() + "}."));
      }
    }
    for (CheckedNode n : m.nodes()) {
      NodeSpec s = n.spec();
      t.addField(
          FieldSpec.builder(
                  Names.NODE_SOURCE,
                  names.source(n.name()),
                  Modifier.PRIVATE,
                  Modifier.STATIC,
                  Modifier.FINAL)
              .initializer(sourceOf(n))
              .build());
    }
    if (!m.spec().dims().isEmpty()) {
      t.addField(dimensionsField());
    }
    t.addField(Names.GRAPH_BUILDER, "builder", Modifier.PRIVATE, Modifier.FINAL);
    if (ImportWriter.imports(m)) {
      t.addField(ImportWriter.field());
    }
    t.addMethod(
        MethodSpec.constructorBuilder()
            .addModifiers(Modifier.PRIVATE)
            .addParameter(Names.GRAPH_BUILDER, "builder")
            .addStatement("this.builder = builder")
            .build());
    t.addMethod(build());
    NameAllocator methods = new NameAllocator();
    m.nodes().forEach(n -> methods.newName(n.name(), n));
    methods.newName("build");
    ImportWriter imports = new ImportWriter(m, names, methods);
    List<MethodSpec> parts = new ArrayList<>();
    for (CheckedNode n : m.nodes()) {
      if (n.spec().inlined() == null && !n.spec().importedInner()) {
        t.addMethod(nodeMethod(n, imports, parts));
      }
      for (BlockSpec b : m.spec().blocks()) {
        if (b.output().equals(n.name())) {
          t.addMethod(blockMethod(b, n));
        }
      }
    }
    for (CheckedNode n : m.nodes()) {
      if (n.spec().inlined() != null && !n.spec().importedInner()) {
        t.addMethod(nodeMethod(n, imports, parts));
      }
    }
    t.addMethods(parts);
    JavaFile.Builder file = JavaFile.builder(m.packageName(), t.build());
    if (names.importBatch) {
      file.addStaticImport(Names.DIM, "BATCH");
    }
    return file.skipJavaLangImports(true).indent("  ").build();
  }

  /**
   * {@code new NodeSource("conv1", "LeNet.conv1()", "@Conv2D(...)")}, and where an imported node's
   * parameters keep their file's names, {@code .named("weight", "conv0_weight")} for each.
   */
  private CodeBlock sourceOf(CheckedNode n) {
    NodeSpec s = n.spec();
    CodeBlock.Builder b =
        CodeBlock.builder()
            .add(
                "$Znew $T($S,$W$S,$W$L)",
                Names.NODE_SOURCE,
                n.name(),
                s.declaration(m.name()),
                Literals.string(s.annotationText()));
    if (s.origin() != null) {
      for (var e : new java.util.TreeMap<>(s.origin().names()).entrySet()) {
        if (!e.getValue().equals(n.name() + "_" + e.getKey())) {
          b.add("$Z.named($S, $S)", e.getKey(), e.getValue());
        }
      }
    }
    return b.build();
  }

  /** The class and its Javadoc. */
  private TypeSpec.Builder typeHeader() {
    Javadoc doc =
        Javadoc.type()
            .paragraph(
                "Builds the MXNet graph of {@link "
                    + m.name()
                    + "}: one method per node, "
                    + "each emitting its MXNet operator named after the node, with the inferred shape "
                    + "of every node and parameter as a constant and where each node was declared.")
            .paragraph(
                "The shapes were inferred at compile time; {@code BATCH} dimensions are "
                    + "fixed when an executor is bound. {@link "
                    + names.model.simpleName()
                    + "} lists "
                    + "every node in its layer table."
                    + (m.hasTracedNodes()
                        ? " A custom layer's output shape is the one the layer "
                            + "declares; its forward body is traced and checked against it when the graph "
                            + "is built."
                        : ""));
    TypeSpec.Builder t =
        TypeSpec.classBuilder(names.graph)
            .addOriginatingElement(m.spec().element())
            .addAnnotation(Names.generated())
            .addModifiers(Modifier.PUBLIC, Modifier.FINAL)
            .addSuperinterface(names.iface)
            // The graph inherits the model's member types, which would shadow imports of the same
            // simple names.
            .avoidClashesWithNestedClasses(m.spec().element())
            .addJavadoc("$L", doc.build());
    return t;
  }

  private static String shapeDoc(CheckedNode n) {
    String name = "{@code " + n.name() + "}";
    String shape = "{@code " + n.shape() + "}";
    if (n.spec().isInput()) {
      return "Declared shape of input " + name + ": " + shape + ".";
    }
    if (n.spec().layer().isCell()) {
      return "Output shape of node "
          + name
          + ", every step's state of its recurrent cell {@code "
          + n.spec().annotationText()
          + "}: "
          + shape
          + ". The cell's forward body is checked "
          + "against the state shape it declares when the graph is built.";
    }
    if (n.spec().layer().tracedAtBuild()) {
      return "Output shape of node "
          + name
          + " as its custom layer {@code "
          + n.spec().annotationText()
          + "} declares it: "
          + shape
          + ". The layer's forward body "
          + "is checked against it when the graph is built.";
    }
    return "Output shape of node " + name + ": " + shape + ".";
  }

  private FieldSpec shapeField(String name, TShape shape, String doc) {
    return FieldSpec.builder(Names.SHAPE, name, Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .addJavadoc("$L", Javadoc.member().paragraph(doc).build())
        .initializer("$Z$T.of($L)$L", Names.SHAPE, dims(shape), labels(shape))
        .build();
  }

  /**
   * {@code BATCH, 784}: the arguments of {@code Shape.of}, each a wrapping point; a free dimension
   * by its constant ({@code H}), a size computed from free dimensions as {@code Shape.FREE}.
   */
  private CodeBlock dims(TShape shape) {
    CodeBlock.Builder b = CodeBlock.builder();
    for (int i = 0; i < shape.rank(); i++) {
      int d = shape.dim(i);
      String dim = freeName(d);
      b.add(
          i == 0 ? "$L" : ",$W$L",
          d == TShape.BATCH
              ? names.batch
              : dim != null ? dim : TShape.isFree(d) ? "Shape.FREE" : Integer.toString(d));
    }
    return b.build();
  }

  /** {@code .free("H - 4", "W - 4")}: the labels of the free entries, or nothing. */
  private CodeBlock labels(TShape shape) {
    CodeBlock.Builder b = CodeBlock.builder();
    boolean first = true;
    for (int i = 0; i < shape.rank(); i++) {
      int d = shape.dim(i);
      String label =
          freeName(d) != null ? freeName(d) : TShape.isFree(d) ? shape.size(i).toString() : null;
      if (label != null) {
        b.add(first ? "$Z.free($S" : ",$W$S", label);
        first = false;
      }
    }
    return first ? b.build() : b.add(")").build();
  }

  /** The free dimension whose placeholder is {@code d}, or null. */
  private String freeName(int d) {
    return m.spec().dims().stream()
        .filter(f -> f.placeholder() == d)
        .map(FreeDimSpec::name)
        .findFirst()
        .orElse(null);
  }

  /**
   * {@code DIMENSIONS}: the model's free dimensions and its requirements, which {@link #build}
   * gives the builder.
   */
  private FieldSpec dimensionsField() {
    CodeBlock.Builder init = CodeBlock.builder().add("$T.of(", Names.DIMENSIONS);
    boolean first = true;
    for (FreeDimSpec d : m.spec().dims()) {
      init.add(
          first ? "$Znew $T($S, $L)" : ",$Wnew $T($S, $L)", Names.DIMENSION, d.name(), d.name());
      first = false;
    }
    init.add(")");
    StringBuilder doc = new StringBuilder();
    for (Requirement r : m.requirements()) {
      init.add("$Z.require($S, $S,$W$S)", r.text(), r.node(), r.why());
      doc.append("<li>{@code ")
          .append(r.text())
          .append("}: ")
          .append(r.node().isEmpty() ? "declared, " : "node {@code " + r.node() + "}, ")
          .append("{@code ")
          .append(r.why().replace("@", "&#64;"))
          .append("}\n");
    }
    return FieldSpec.builder(
            Names.DIMENSIONS, "DIMENSIONS", Modifier.PUBLIC, Modifier.STATIC, Modifier.FINAL)
        .addJavadoc(
            "$L",
            Javadoc.member()
                .paragraph(
                    "The free dimensions of {@code "
                        + m.name()
                        + "} and what it needs of their sizes, checked before an executor is "
                        + "bound for a new shape:")
                .build())
        .addJavadoc("<ul>\n$L</ul>\n", doc.length() == 0 ? "<li>nothing more\n" : doc)
        .initializer(init.build())
        .build();
  }

  private MethodSpec build() {
    NameAllocator locals = new NameAllocator();
    locals.newName("builder");
    locals.newName("graph");
    Map<String, BlockSpec> blockOf = new HashMap<>();
    for (BlockSpec b : m.spec().blocks()) {
      blockOf.put(b.output(), b);
      locals.newName(b.name(), b.output());
    }
    for (CheckedNode n : m.order()) {
      if (n.spec().inlined() == null) {
        locals.newName(n.name(), n.name());
      }
    }
    // Its parameter is a GraphBuilder, which no node method takes: so whatever the nodes are
    // called (build too), this method is not one of theirs.
    Javadoc doc =
        Javadoc.member()
            .paragraph(
                "Builds the graph of {@code "
                    + m.name()
                    + "} with {@code builder}: calls "
                    + "every node method once, each after the nodes it reads, and returns the graph, "
                    + "which the caller owns and must close. The caller closes {@code builder} too.")
            .param(
                "builder",
                "a new builder for {@code "
                    + m.name()
                    + "}"
                    + (m.classifierHead() == null
                        ? ""
                        : "; with classifier training on, node {@code "
                            + m.classifierHead().name()
                            + "} becomes MXNet's {@code SoftmaxOutput} with label variable {@code "
                            + m.classifierHead().name()
                            + "_label}")
                    + (m.lossHead() == null
                        ? ""
                        : "; with training on, the loss head {@code "
                            + m.lossHead().name()
                            + "} becomes MXNet's {@code MakeLoss} over the loss of each value"))
            .returns("the graph");
    MethodSpec.Builder b =
        MethodSpec.methodBuilder("build")
            .addModifiers(Modifier.PUBLIC, Modifier.STATIC)
            .returns(Names.GRAPH)
            .addParameter(Names.GRAPH_BUILDER, "builder")
            .addJavadoc("$L", doc.build())
            .addStatement("$T graph = new $T(builder)", names.graph, names.graph);
    if (!m.spec().dims().isEmpty()) {
      b.addStatement("builder.dimensions(DIMENSIONS)");
    }
    for (CheckedNode n : m.order()) {
      if (n.spec().importedInner()) {
        continue; // emitted by the method of the import's output
      }
      BlockSpec block = blockOf.get(n.name());
      if (block != null) {
        b.addStatement(
            "$T $N =$Wgraph.$N($N)",
            Names.SYM,
            locals.get(n.name()),
            block.name(),
            locals.get(block.copyInputs().get(0)));
        continue;
      }
      if (n.spec().inlined() != null) {
        continue; // called by its block's method
      }
      CodeBlock.Builder args = CodeBlock.builder();
      List<NodeSpec.Wire> wires =
          n.spec().origin() != null ? n.spec().origin().declared() : n.spec().wires();
      for (int i = 0; i < wires.size(); i++) {
        args.add(i == 0 ? "$N" : ",$W$N", locals.get(wires.get(i).source()));
      }
      if (n.read() || n.output()) {
        b.addStatement(
            "$T $N =$Wgraph.$N($L)", Names.SYM, locals.get(n.name()), n.name(), args.build());
      } else {
        b.addStatement("graph.$N($L)", n.name(), args.build()); // an input nothing reads
      }
    }
    CodeBlock.Builder outs = CodeBlock.builder();
    for (int i = 0; i < m.outputs().size(); i++) {
      outs.add(i == 0 ? "$N" : ",$W$N", locals.get(m.outputs().get(i).name()));
    }
    b.addStatement("return builder.build($T.of($L))", List.class, outs.build());
    return b.build();
  }

  /**
   * The method of block node {@code b} (whose output is {@code out}'s): calls the node method of
   * every copy's every node, in order, the first copy's first reading the parameter.
   */
  private MethodSpec blockMethod(BlockSpec b, CheckedNode out) {
    String param = b.method().getParameters().get(0).getSimpleName().toString();
    String doc =
        "Node {@code "
            + b.name()
            + "}: {@code "
            + b.annotationText()
            + "}, "
            + (b.repeat() == 1 ? "one copy" : b.repeat() + " copies, one after the other,")
            + " of the nodes of {@code "
            + b.type()
            + "}, each with its own parameters; output {@code "
            + out.shape()
            + "}.";
    MethodSpec.Builder method =
        MethodSpec.methodBuilder(b.name())
            .addAnnotation(Override.class)
            .addModifiers(Modifier.PUBLIC)
            .returns(Names.SYM)
            .addParameter(ParameterSpec.builder(Names.SYM, param).build())
            .addJavadoc("$L", Javadoc.member().paragraph(doc).build());
    NameAllocator locals = new NameAllocator();
    locals.newName(param, b.copyInputs().get(0));
    for (CheckedNode n : m.order()) {
      NodeSpec.Inlined in = n.spec().inlined();
      if (in == null || !in.block().equals(b.name())) {
        continue;
      }
      CodeBlock.Builder args = CodeBlock.builder();
      List<NodeSpec.Wire> wires = n.spec().wires();
      for (int i = 0; i < wires.size(); i++) {
        args.add(i == 0 ? "$N" : ",$W$N", locals.get(wires.get(i).source()));
      }
      locals.newName(n.name(), n.name());
      method.addStatement(
          "$T $N =$W$N($L)", Names.SYM, locals.get(n.name()), n.name(), args.build());
    }
    return method.addStatement("return $N", locals.get(b.output())).build();
  }

  private MethodSpec nodeMethod(CheckedNode n, ImportWriter imports, List<MethodSpec> parts) {
    NodeSpec s = n.spec();
    String shape = "{@code " + n.shape() + "}";
    String output;
    if (s.layer().isCell()) {
      output =
          "a recurrent cell unrolled over "
              + (n.shape().dim(1) == TShape.STEPS
                  ? "the STEPS an executor is bound for"
                  : n.shape().dim(1) + " steps")
              + ", declared output "
              + shape
              + " (every step's state), against which each traced "
              + "step is checked";
    } else if (s.layer().tracedAtBuild()) {
      output = "declared output " + shape + ", against which the traced forward body is checked";
    } else if (s.origin() != null) {
      output =
          "the nodes of {@code "
              + s.origin().symbol()
              + "} up to {@code "
              + s.origin().entry()
              + "}, output "
              + shape;
    } else {
      output = "output " + shape;
    }
    NodeSpec.Inlined in = s.inlined();
    String doc =
        "Node {@code "
            + n.name()
            + "}"
            + (in == null
                ? ""
                : ", copy "
                    + in.copy()
                    + " of {@code "
                    + in.declaredAs()
                    + "} in block {@code "
                    + in.block()
                    + "}")
            + ": {@code "
            + s.annotationText()
            + "}, "
            + output
            + "."
            + (s.frozen() ? " Its parameters are frozen: no update changes them." : "");
    MethodSpec.Builder b =
        MethodSpec.methodBuilder(n.name())
            .returns(Names.SYM)
            .addJavadoc("$L", Javadoc.member().paragraph(doc).build());
    if (in == null) {
      b.addAnnotation(Override.class).addModifiers(Modifier.PUBLIC);
    } else {
      b.addModifiers(Modifier.PRIVATE);
    }
    List<String> params = new ArrayList<>();
    for (NodeSpec.Wire w : s.origin() != null ? s.origin().declared() : s.wires()) {
      b.addParameter(ParameterSpec.builder(Names.SYM, w.parameterName()).build());
      params.add(w.parameterName());
    }
    if (s.origin() != null) {
      return b.addCode(imports.body(n, parts)).build();
    }
    if (n.freezes()) {
      b.addStatement("this.builder.freeze($L)", names.source(n.name()));
    }
    b.addCode(new CallFormatter(names, n, params).body());
    return b.build();
  }
}
