package dev.kiln.processor.write;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import com.palantir.javapoet.NameAllocator;
import dev.kiln.annotations.Act;
import dev.kiln.processor.model.CheckedNode;
import dev.kiln.processor.model.LayerSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The body of one node method of {@code XGraph}: the call of the runtime's graph builder that emits
 * the node's MXNet operators, its attributes spelled out with the runtime's spec builders ({@code
 * DenseSpec.units(128).activation(Act.RELU)}) and wrapping points where a reader would break the
 * line.
 */
final class LayerEmitter implements LayerSpec.Visitor<CodeBlock> {
  private final GeneratedNames names;
  private final CheckedNode node;
  private final boolean classifierHead;
  private final String src;
  private final List<String> in;

  /**
   * The emitter for {@code node}, whose method parameters are {@code in}; {@code classifierHead}
   * when the node is the softmax that classifier training replaces.
   */
  LayerEmitter(GeneratedNames names, CheckedNode node, boolean classifierHead, List<String> in) {
    this.names = names;
    this.node = node;
    this.classifierHead = classifierHead;
    this.src = names.source(node.name());
    this.in = in;
  }

  /** The statements of the node method after any {@code freeze}. */
  CodeBlock body() {
    return node.spec().layer().accept(this);
  }

  private String x() {
    return in.get(0);
  }

  /** {@code return this.builder.<method>(SRC, <args>);}, each argument a wrapping point. */
  private CodeBlock call(String method, Object... args) {
    CodeBlock.Builder b = CodeBlock.builder().add("return this.builder.$L($Z$L", method, src);
    for (Object a : args) {
      b.add(",$W");
      if (a instanceof CodeBlock c) {
        b.add(c);
      } else {
        b.add("$L", a);
      }
    }
    return CodeBlock.builder().addStatement(b.add(")").build()).build();
  }

  /**
   * A spec builder chain, {@code DenseSpec.units(128).activation(Act.RELU)}: kept on one line
   * unless it is too long for one, when it breaks before a method.
   */
  private static final class Chain {
    private static final int ONE_LINE = 80;
    private final List<CodeBlock> calls = new ArrayList<>();
    private int length;

    /** {@code spec.method(args)}. */
    Chain(ClassName spec, String method, Object... args) {
      calls.add(CodeBlock.of("$T.$L($L)", spec, method, arguments(args)));
      length = spec.simpleName().length();
    }

    /** This chain followed by {@code .method(args)}. */
    Chain then(String method, Object... args) {
      CodeBlock call = CodeBlock.of(".$L($L)", method, arguments(args));
      calls.add(call);
      length += call.toString().replace("dev.kiln.annotations.", "").length();
      return this;
    }

    /** This chain followed by {@code .method(args)} if {@code condition}. */
    Chain when(boolean condition, String method, Object... args) {
      return condition ? then(method, args) : this;
    }

    /** The chain, on one line if it is short enough, else with a wrapping point per call. */
    CodeBlock build() {
      CodeBlock.Builder b = CodeBlock.builder();
      for (int i = 0; i < calls.size(); i++) {
        b.add(i > 0 && length > ONE_LINE ? "$Z$L" : "$L", calls.get(i));
      }
      return b.build();
    }

    /** {@code 5, 5} for a window's {@code {height, width}}, code blocks as they are. */
    private static CodeBlock arguments(Object... args) {
      CodeBlock.Builder b = CodeBlock.builder();
      for (int i = 0; i < args.length; i++) {
        Object a = args[i] instanceof int[] hw ? hw[0] + ", " + hw[1] : args[i];
        b.add(i == 0 ? "$L" : ", $L", a);
      }
      return b.build();
    }
  }

  private static CodeBlock act(Act a) {
    return CodeBlock.of("$T.$L", Names.ACT, a.name());
  }

  private static boolean isDefault(int[] hw, int value) {
    return hw[0] == value && hw[1] == value;
  }

  @Override
  public CodeBlock visitInput(LayerSpec.Input i) {
    return CodeBlock.builder()
        .addStatement("return this.builder.input($Z$L,$W$L)", src, names.shape(node.name()))
        .build();
  }

  @Override
  public CodeBlock visitDense(LayerSpec.Dense d) {
    Chain spec = new Chain(Names.DENSE_SPEC, "units", d.units());
    if (d.activation() != Act.NONE) {
      spec.then("activation", act(d.activation()));
    }
    spec.when(d.noBias(), "withoutBias").when(!d.flatten(), "flatten", false);
    return call("dense", x(), spec.build());
  }

  @Override
  public CodeBlock visitActivation(LayerSpec.Activation a) {
    return call("activation", x(), act(a.activation()));
  }

  @Override
  public CodeBlock visitSoftmax(LayerSpec.Softmax s) {
    return call(classifierHead ? "classifierHead" : "softmax", x(), s.axis());
  }

  @Override
  public CodeBlock visitFlatten(LayerSpec.Flatten f) {
    return call("flatten", x());
  }

  @Override
  public CodeBlock visitAdd(LayerSpec.Add a) {
    return call("add", in.toArray());
  }

  @Override
  public CodeBlock visitConcat(LayerSpec.Concat c) {
    List<Object> args = new ArrayList<>();
    args.add(c.axis());
    args.addAll(in);
    return call("concat", args.toArray());
  }

  @Override
  public CodeBlock visitConv2D(LayerSpec.Conv2D c) {
    int[] stride = LayerSpec.pair(c.stride());
    int[] pad = LayerSpec.pair(c.pad());
    int[] dilation = LayerSpec.pair(c.dilation());
    Chain spec =
        new Chain(Names.CONV2D_SPEC, "filters", c.filters())
            .then("kernel", LayerSpec.pair(c.kernel()))
            .when(!isDefault(stride, 1), "stride", stride)
            .when(!isDefault(pad, 0), "pad", pad)
            .when(!isDefault(dilation, 1), "dilation", dilation);
    if (c.activation() != Act.NONE) {
      spec.then("activation", act(c.activation()));
    }
    spec.when(c.noBias(), "withoutBias");
    return call("conv2d", x(), spec.build());
  }

  @Override
  public CodeBlock visitPool(LayerSpec.Pool p) {
    int[] kernel = LayerSpec.pair(p.kernel());
    int[] stride = p.effectiveStride();
    int[] pad = LayerSpec.pair(p.pad());
    Chain spec =
        new Chain(Names.POOL_SPEC, "kernel", kernel)
            .when(stride[0] != kernel[0] || stride[1] != kernel[1], "stride", stride)
            .when(!isDefault(pad, 0), "pad", pad);
    return call(p.type().equals("max") ? "maxPool" : "avgPool", x(), spec.build());
  }

  @Override
  public CodeBlock visitGlobalAvgPool(LayerSpec.GlobalAvgPool g) {
    return call("globalAvgPool", x());
  }

  @Override
  public CodeBlock visitReshape(LayerSpec.Reshape r) {
    List<Object> args = new ArrayList<>();
    args.add(x());
    r.shape().forEach(d -> args.add(d == -1 ? names.batch : d.toString()));
    return call("reshape", args.toArray());
  }

  @Override
  public CodeBlock visitDropout(LayerSpec.Dropout d) {
    return call("dropout", x(), Literals.decimal(d.rate()));
  }

  @Override
  public CodeBlock visitBatchNorm(LayerSpec.BatchNorm b) {
    // MXNet takes BatchNorm's oneDNN path only for axis 1 as written, so -3 of a rank-4 input
    // goes out as 1: the CPU fallback for other spellings fails the backward pass of a oneDNN
    // convolution's output ("Check failed: !is_view", found by the differential suite).
    int axis = b.axis() < 0 ? b.axis() + node.shape().rank() : b.axis();
    return call(
        "batchNorm",
        x(),
        new Chain(Names.BATCH_NORM_SPEC, "channelAxis", axis)
            .then("eps", Literals.decimal(b.eps()))
            .then("momentum", Literals.decimal(b.momentum()))
            .build());
  }

  @Override
  public CodeBlock visitLayerNorm(LayerSpec.LayerNorm l) {
    return call(
        "layerNorm",
        x(),
        new Chain(Names.LAYER_NORM_SPEC, "axis", l.axis())
            .then("eps", Literals.decimal(l.eps()))
            .build());
  }

  @Override
  public CodeBlock visitEmbedding(LayerSpec.Embedding e) {
    return call(
        "embedding",
        x(),
        new Chain(Names.EMBEDDING_SPEC, "rows", e.inputDim())
            .then("columns", e.outputDim())
            .build());
  }

  /**
   * {@code this.builder.rnn(SRC, rows, ROWS_SHAPE, RnnSpec.lstm(128).lastStep())}: the input's
   * shape constant gives the builder the features per step, which place each layer's runs of the
   * flat parameter vector.
   */
  @Override
  public CodeBlock visitRecurrent(LayerSpec.Recurrent r) {
    String factory =
        switch (r.mode()) {
          case "lstm" -> "lstm";
          case "gru" -> "gru";
          case "rnn_relu" -> "relu";
          default -> "tanh";
        };
    CodeBlock spec =
        new Chain(Names.RNN_SPEC, factory, r.units())
            .when(r.layers() != 1, "layers", r.layers())
            .when(r.bidirectional(), "inBothDirections")
            .when(r.dropout() != 0, "dropout", Literals.decimal(r.dropout()))
            .when(!r.returnSequences(), "lastStep")
            .when(r.stateful(), "carryingState")
            .build();
    String source = node.spec().wires().get(0).source();
    return call("rnn", x(), names.shape(source), spec);
  }

  /**
   * A custom layer: one local per parameter, made by the builder, then one traced call of its
   * forward method, e.g. {@code return this.builder.custom(SCORES_SOURCE, "Affine", PIXELS_SHAPE,
   * SCORES_SHAPE, pixels, List.of(weight, bias), (input, params) -> Affine.Forward.apply(input,
   * params.get(0), params.get(1)));}. A recurrent cell calls {@code this.builder.cell} instead,
   * whose forward also takes the previous state: {@code (input, state, params) ->
   * GruCell.Step.apply(input, state, params.get(0), ...)}.
   */
  @Override
  public CodeBlock visitCustom(LayerSpec.Custom c) {
    NameAllocator locals = new NameAllocator();
    in.forEach(locals::newName);
    String input = locals.newName("input");
    String state = c.cell() ? locals.newName("state") : null;
    String params = locals.newName("params");
    CodeBlock.Builder body = CodeBlock.builder();
    List<String> made = new ArrayList<>();
    for (LayerSpec.CustomParam p : c.params()) {
      String local = locals.newName(p.name());
      made.add(local);
      String shape = names.shape(node.name() + "_" + p.role());
      String call =
          "this.builder.customParam("
              + src
              + ", \""
              + p.role()
              + "\", "
              + shape
              + ", "
              + p.zeros()
              + ");";
      String declared = "Sym " + local + " = ";
      // On one line if it fits, else broken after =, else after each argument too.
      String format =
          4 + declared.length() + call.length() <= Javadoc.LIMIT
              ? "$T $N = this.builder.customParam($L, $S, $L, $L)"
              : 8 + call.length() <= Javadoc.LIMIT
                  ? "$T $N =\nthis.builder.customParam($L, $S, $L, $L)"
                  : "$T $N =\nthis.builder.customParam($L,$W$S,$W$L,$W$L)";
      body.addStatement(format, Names.SYM, local, src, p.role(), shape, p.zeros());
    }
    List<String> args = new ArrayList<>();
    args.add(input);
    if (state != null) {
      args.add(state);
    }
    for (LayerSpec.ForwardArg a : c.args()) {
      args.add(a.param() >= 0 ? params + ".get(" + a.param() + ")" : a.literal());
    }
    String lambda = "(" + input + (state == null ? "" : ", " + state) + ", " + params + ")";
    ClassName forwardType = ClassName.get(c.forwardType());
    String call =
        String.join(".", forwardType.simpleNames())
            + "."
            + c.forwardMethod()
            + "("
            + String.join(", ", args)
            + ")";
    boolean oneLine = lambda.length() + call.length() + 4 <= 88;
    CodeBlock forward =
        CodeBlock.of(
            "$L ->$W$T.$L($L)",
            lambda,
            forwardType,
            c.forwardMethod(),
            oneLine ? String.join(", ", args) : commas(args));
    String list = String.join(", ", made);
    Object listed = list.length() <= 60 ? list : commas(made);
    String source = node.spec().wires().get(0).source();
    // The forward pass gets a line of its own, as a reader would write it.
    return body.addStatement(
            "return this.builder.$L($Z$L,$W$L,$W$L,$W$L,$W$L,$W$T.of($L),\n$L)",
            c.cell() ? "cell" : "custom",
            src,
            Literals.string(c.layerName()),
            names.shape(source),
            names.shape(node.name()),
            x(),
            List.class,
            listed,
            forward)
        .build();
  }

  /** {@code a, b, c} with a wrapping point after each comma. */
  private static CodeBlock commas(List<String> items) {
    CodeBlock.Builder b = CodeBlock.builder();
    for (int i = 0; i < items.size(); i++) {
      b.add(i == 0 ? "$L" : ",$W$L", items.get(i));
    }
    return b.build();
  }
}
