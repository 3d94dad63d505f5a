package dev.kiln.onnx;

import com.google.protobuf.ByteString;
import dev.kiln.onnx.proto.Onnx.AttributeProto;
import dev.kiln.onnx.proto.Onnx.GraphProto;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.onnx.proto.Onnx.NodeProto;
import dev.kiln.onnx.proto.Onnx.OperatorSetIdProto;
import dev.kiln.onnx.proto.Onnx.TensorProto;
import dev.kiln.onnx.proto.Onnx.TensorShapeProto;
import dev.kiln.onnx.proto.Onnx.TypeProto;
import dev.kiln.onnx.proto.Onnx.ValueInfoProto;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.ops.file.SymbolFile.Entry;
import dev.kiln.ops.file.SymbolFile.Node;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Kiln's one mapping of MXNet operators to ONNX: an MXNet symbol (the inference graph every Kiln
 * model builds, whatever its layers: built-in units, {@code @Imported} files and custom layers all
 * become MXNet operators) with its parameters becomes an ONNX model whose initializers are the
 * weights. Each MXNet operator has one rule in {@link #OPERATORS}; a node none maps, or whose
 * attributes ONNX cannot express, is refused with {@link OnnxExportException} naming it, before
 * anything is written. The graph made is checked against the rules ONNX states for a graph (every
 * value defined once, before it is read; inputs, initializers and outputs named once).
 */
public final class OnnxExport {
  /** The opset written unless another is asked for. */
  public static final int DEFAULT_OPSET = 17;

  /** The lowest opset written. */
  public static final int MIN_OPSET = 13;

  /** The highest opset written. */
  public static final int MAX_OPSET = 21;

  /** The symbolic name of the batch dimension. */
  public static final String BATCH = "batch";

  /**
   * One input of the model.
   *
   * @param name its name
   * @param dims its dimensions; a negative one is symbolic
   * @param dimParams the symbolic name of each negative dimension ({@code batch}, {@code H}); ""
   *     for the others
   */
  public record Input(String name, long[] dims, List<String> dimParams) {
    /** An input whose only unknown dimensions are the batch. */
    public Input(String name, long[] dims) {
      this(name, dims, java.util.Arrays.stream(dims).mapToObj(d -> d < 0 ? BATCH : "").toList());
    }
  }

  /**
   * One parameter or auxiliary state.
   *
   * @param dims its shape
   * @param data its values, row-major
   */
  public record Array(long[] dims, float[] data) {}

  /** One MXNet operator's translation into ONNX nodes. */
  @FunctionalInterface
  interface Rule {
    /** Emits {@code node} into {@code g}; returns the ONNX names of its outputs. */
    List<String> emit(Builder g, Node node, List<String> in);
  }

  /** The MXNet operators exported, each with what it becomes in ONNX (for the docs). */
  public static final Map<String, String> OPERATORS;

  private static final Map<String, Rule> RULES = new HashMap<>();

  static {
    Map<String, String> doc = new TreeMap<>();
    rule(doc, "FullyConnected", "Gemm (Flatten first), or MatMul and Add", OnnxExport::dense);
    rule(doc, "Convolution", "Conv", OnnxExport::conv);
    rule(doc, "Deconvolution", "ConvTranspose", OnnxExport::deconv);
    rule(
        doc, "Pooling", "MaxPool, AveragePool, GlobalMaxPool, GlobalAveragePool", OnnxExport::pool);
    rule(doc, "BatchNorm", "BatchNormalization (inference form)", OnnxExport::batchNorm);
    rule(doc, "LayerNorm", "LayerNormalization", OnnxExport::layerNorm);
    rule(
        doc,
        "Activation",
        "Relu, Sigmoid, Tanh, Softplus, Softsign; mish as Softplus, Tanh, Mul; log_sigmoid as Log",
        OnnxExport::activation);
    rule(doc, "LeakyReLU", "LeakyRelu, Elu, Selu, PRelu, Gelu as Erf", OnnxExport::leaky);
    rule(doc, "Dropout", "Identity (removed in inference)", OnnxExport::identity);
    rule(doc, "BlockGrad", "Identity", OnnxExport::identity);
    rule(doc, "_copy", "Identity", OnnxExport::identity);
    rule(doc, "Cast", "Cast (float32, int32, int64)", OnnxExport::cast);
    rule(doc, "Flatten", "Flatten", (g, n, in) -> g.node("Flatten", n, in, g.i("axis", 1)));
    rule(doc, "Reshape", "Reshape", OnnxExport::reshape);
    rule(
        doc,
        "softmax",
        "Softmax (Div by the temperature; lengths as a mask: Range, Less, Where)",
        OnnxExport::softmax);
    rule(
        doc,
        "ones_like",
        "Expand of 1 to the shape read by Shape",
        (g, n, in) -> filled(g, n, in, 1));
    rule(
        doc,
        "zeros_like",
        "Expand of 0 to the shape read by Shape",
        (g, n, in) -> filled(g, n, in, 0));
    rule(doc, "_contrib_arange_like", "Range over a size read by Shape", OnnxExport::arangeLike);
    rule(doc, "broadcast_like", "Expand to sizes read by Shape", OnnxExport::broadcastLike);
    rule(
        doc, "SoftmaxOutput", "Softmax (the loss head's inference output)", OnnxExport::softmaxOut);
    rule(
        doc,
        "LinearRegressionOutput",
        "Identity (the loss head's inference output)",
        OnnxExport::head);
    rule(
        doc,
        "MAERegressionOutput",
        "Identity (the loss head's inference output)",
        OnnxExport::head);
    rule(
        doc,
        "LogisticRegressionOutput",
        "Sigmoid (the loss head's inference output)",
        (g, n, in) -> g.node("Sigmoid", n, in.subList(0, 1)));
    for (String[] b :
        new String[][] {
          {"elemwise_add", "Add"},
          {"elemwise_sub", "Sub"},
          {"elemwise_mul", "Mul"},
          {"elemwise_div", "Div"},
          {"_plus", "Add"},
          {"_minus", "Sub"},
          {"_mul", "Mul"},
          {"_div", "Div"},
          {"_add", "Add"},
          {"_sub", "Sub"},
          {"broadcast_add", "Add"},
          {"broadcast_plus", "Add"},
          {"broadcast_sub", "Sub"},
          {"broadcast_minus", "Sub"},
          {"broadcast_mul", "Mul"},
          {"broadcast_div", "Div"},
          {"broadcast_maximum", "Max"},
          {"broadcast_minimum", "Min"},
          {"_maximum", "Max"},
          {"_minimum", "Min"}
        }) {
      String onnx = b[1];
      rule(doc, b[0], onnx, (g, n, in) -> g.node(onnx, n, in));
    }
    for (String[] s :
        new String[][] {
          {"_plus_scalar", "Add"},
          {"_minus_scalar", "Sub"},
          {"_mul_scalar", "Mul"},
          {"_div_scalar", "Div"},
          {"_maximum_scalar", "Max"},
          {"_minimum_scalar", "Min"},
          {"_power_scalar", "Pow"},
          {"_rminus_scalar", "Sub (scalar first)"},
          {"_rdiv_scalar", "Div (scalar first)"}
        }) {
      String onnx = s[1].split(" ")[0];
      boolean reversed = s[0].startsWith("_r");
      rule(doc, s[0], s[1] + " with a constant", (g, n, in) -> scalar(g, n, in, onnx, reversed));
    }
    rule(doc, "add_n", "Sum", (g, n, in) -> g.node("Sum", n, in));
    rule(doc, "ElementWiseSum", "Sum", (g, n, in) -> g.node("Sum", n, in));
    rule(doc, "Concat", "Concat", OnnxExport::concat);
    rule(doc, "concat", "Concat", OnnxExport::concat);
    rule(doc, "transpose", "Transpose", OnnxExport::transpose);
    rule(doc, "SwapAxis", "Transpose", OnnxExport::swapAxis);
    rule(doc, "swapaxes", "Transpose", OnnxExport::swapAxis);
    rule(doc, "clip", "Clip", OnnxExport::clip);
    rule(doc, "Embedding", "Cast to int64, Gather", OnnxExport::embedding);
    rule(doc, "slice_axis", "Slice", OnnxExport::sliceAxis);
    rule(doc, "SliceChannel", "Split (Squeeze)", OnnxExport::split);
    rule(doc, "split", "Split (Squeeze)", OnnxExport::split);
    rule(doc, "squeeze", "Squeeze", OnnxExport::squeeze);
    rule(doc, "sum", "ReduceSum", (g, n, in) -> reduce(g, n, in, "ReduceSum"));
    rule(doc, "mean", "ReduceMean", (g, n, in) -> reduce(g, n, in, "ReduceMean"));
    rule(doc, "max", "ReduceMax", (g, n, in) -> reduce(g, n, in, "ReduceMax"));
    rule(doc, "min", "ReduceMin", (g, n, in) -> reduce(g, n, in, "ReduceMin"));
    rule(doc, "prod", "ReduceProd", (g, n, in) -> reduce(g, n, in, "ReduceProd"));
    for (String[] u :
        new String[][] {
          {"sqrt", "Sqrt"},
          {"exp", "Exp"},
          {"log", "Log"},
          {"negative", "Neg"},
          {"abs", "Abs"},
          {"erf", "Erf"},
          {"broadcast_power", "Pow"}
        }) {
      String onnx = u[1];
      rule(doc, u[0], onnx, (g, n, in) -> g.node(onnx, n, in));
    }
    rule(doc, "log_softmax", "LogSoftmax", OnnxExport::logSoftmax);
    rule(doc, "InstanceNorm", "InstanceNormalization", OnnxExport::instanceNorm);
    rule(doc, "Pad", "Pad (constant, edge, reflect)", OnnxExport::pad);
    rule(doc, "tile", "Tile", OnnxExport::tile);
    rule(doc, "dot", "MatMul (Transpose)", OnnxExport::dot);
    rule(doc, "batch_dot", "MatMul (Transpose)", OnnxExport::batchDot);
    rule(doc, "UpSampling", "Resize (nearest)", OnnxExport::upsampling);
    rule(doc, "LRN", "LRN", OnnxExport::lrn);
    rule(
        doc, "_contrib_BilinearResize2D", "Resize (linear, corners aligned)", OnnxExport::bilinear);
    rule(doc, "RNN", "RNN, GRU, LSTM per layer (gates reordered)", OnnxExport::rnn);
    OPERATORS = java.util.Collections.unmodifiableMap(doc);
  }

  private static void rule(Map<String, String> doc, String mxnet, String onnx, Rule rule) {
    doc.put(mxnet, onnx);
    RULES.put(mxnet, rule);
  }

  private OnnxExport() {}

  /**
   * The ONNX model of {@code symbol} with {@code params} (parameters and auxiliary states by MXNet
   * name) as initializers, {@code inputs} as its inputs and the symbol's heads as {@code outputs},
   * in {@code opset}.
   *
   * @throws OnnxExportException naming the node, its operator and why, when a node cannot be
   *     expressed in ONNX; or when the opset is out of range
   */
  public static ModelProto export(
      String graphName,
      SymbolFile symbol,
      List<Input> inputs,
      List<String> outputs,
      Map<String, Array> params,
      int opset) {
    if (opset < MIN_OPSET || opset > MAX_OPSET) {
      throw new OnnxExportException(
          "opset " + opset + " is not written: choose " + MIN_OPSET + " to " + MAX_OPSET);
    }
    if (outputs.size() != symbol.heads().size()) {
      throw new OnnxExportException(
          "the symbol has " + symbol.heads().size() + " outputs, named " + outputs);
    }
    refuseQuantised(symbol);
    Builder g = new Builder(opset, params);
    for (int k = 0; k < outputs.size(); k++) {
      if (!symbol.node(symbol.heads().get(k)).name().equals(outputs.get(k))) {
        g.reserved.add(outputs.get(k));
      }
    }
    for (Input in : inputs) {
      g.graph.addInput(valueInfo(in.name(), in.dims(), in.dimParams()));
      g.define(in.name(), in.dims().length);
    }
    Set<String> inputNames = new HashSet<>();
    inputs.forEach(i -> inputNames.add(i.name()));
    // which nodes the heads need: loss heads read only their data
    boolean[] needed = new boolean[symbol.nodes().size()];
    for (Entry h : symbol.heads()) {
      mark(symbol, h.node(), needed);
    }
    for (Node n : symbol.nodes()) {
      if (needed[n.id()] && !n.isVariable() && !RULES.containsKey(n.op())) {
        throw new OnnxExportException(
            "node '"
                + n.name()
                + "' ("
                + n.op()
                + "): no ONNX mapping for MXNet operator "
                + n.op()
                + "; exported operators: "
                + OPERATORS.keySet());
      }
    }
    Map<Integer, List<String>> values = new HashMap<>();
    for (Node n : symbol.nodes()) {
      if (!needed[n.id()]) {
        continue;
      }
      if (n.isVariable()) {
        if (inputNames.contains(n.name())) {
          values.put(n.id(), List.of(n.name()));
        } else if (params.containsKey(n.name())) {
          values.put(n.id(), List.of(g.initializer(n.name())));
        } else if (readOnlyAsRnnState(symbol, n.id(), needed)) {
          values.put(n.id(), List.of(g.state(n.name())));
        } else {
          throw new OnnxExportException(
              "variable '"
                  + n.name()
                  + "' is neither an input ("
                  + inputNames
                  + ") nor a parameter of the model");
        }
        continue;
      }
      Rule rule = RULES.get(n.op());
      if (rule == null) {
        throw new OnnxExportException(
            "node '"
                + n.name()
                + "' ("
                + n.op()
                + "): no ONNX mapping for MXNet operator "
                + n.op()
                + "; exported operators: "
                + OPERATORS.keySet());
      }
      List<String> in = new ArrayList<>();
      for (Entry e : inputsRead(n)) {
        in.add(values.get(e.node()).get(e.index()));
      }
      try {
        values.put(n.id(), rule.emit(g, n, in));
      } catch (OnnxExportException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new OnnxExportException(
            "node '" + n.name() + "' (" + n.op() + "): cannot be expressed in ONNX: " + e);
      }
    }
    for (int k = 0; k < outputs.size(); k++) {
      Entry h = symbol.heads().get(k);
      String value = values.get(h.node()).get(h.index());
      String name = outputs.get(k);
      if (!value.equals(name)) {
        g.add(g.nodeProto("Identity", "output_" + name, List.of(value), List.of(name)));
      }
      g.graph.addOutput(
          ValueInfoProto.newBuilder()
              .setName(name)
              .setType(
                  TypeProto.newBuilder()
                      .setTensorType(
                          TypeProto.Tensor.newBuilder()
                              .setElemType(TensorProto.DataType.FLOAT_VALUE))));
    }
    g.graph.setName(graphName);
    dropUnread(g.graph);
    GraphProto graph = g.graph.build();
    check(graph);
    return ModelProto.newBuilder()
        .setIrVersion(irVersion(opset))
        .setProducerName("kiln")
        .setProducerVersion("0.1.0")
        .setGraph(graph)
        .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(opset))
        .build();
  }

  /** The IR version that goes with {@code opset} (ONNX's own table). */
  static int irVersion(int opset) {
    if (opset <= 18) {
      return 8;
    }
    if (opset <= 20) {
      return 9;
    }
    return 10;
  }

  /** Removes the initializers no node reads (a recurrent layer's flat vector, cut into others). */
  private static void dropUnread(GraphProto.Builder graph) {
    Set<String> read = new HashSet<>();
    for (NodeProto n : graph.getNodeList()) {
      read.addAll(n.getInputList());
    }
    List<TensorProto> kept = new ArrayList<>();
    for (TensorProto t : graph.getInitializerList()) {
      if (read.contains(t.getName())) {
        kept.add(t);
      }
    }
    graph.clearInitializer().addAllInitializer(kept);
  }

  private static void refuseQuantised(SymbolFile symbol) {
    for (Node n : symbol.nodes()) {
      String op = n.op();
      if (op.contains("quantize") || op.startsWith("_sg_") || op.contains("quantized")) {
        throw new OnnxExportException(
            "node '"
                + n.name()
                + "' ("
                + op
                + "): int8 (quantised) and fused models are not exported to ONNX; "
                + "export the float32 model it was made from");
      }
    }
  }

  /**
   * Whether variable {@code id} is read only as an initial state of {@code RNN} nodes (a model's
   * recurrent state, zeros at the start of a sequence, which ONNX's recurrent operators default).
   */
  private static boolean readOnlyAsRnnState(SymbolFile s, int id, boolean[] needed) {
    boolean read = false;
    for (Node n : s.nodes()) {
      if (!needed[n.id()] || n.isVariable()) {
        continue;
      }
      List<Entry> in = inputsRead(n);
      for (int k = 0; k < in.size(); k++) {
        if (in.get(k).node() == id) {
          if (!n.op().equals("RNN") || k < 2) {
            return false;
          }
          read = true;
        }
      }
    }
    return read;
  }

  private static void mark(SymbolFile s, int id, boolean[] needed) {
    if (needed[id]) {
      return;
    }
    needed[id] = true;
    for (Entry e : inputsRead(s.nodes().get(id))) {
      mark(s, e.node(), needed);
    }
  }

  /** What a node reads in inference: a loss head only its prediction. */
  private static List<Entry> inputsRead(Node n) {
    return switch (n.op()) {
      case "SoftmaxOutput",
          "LinearRegressionOutput",
          "MAERegressionOutput",
          "LogisticRegressionOutput" ->
          n.inputs().subList(0, 1);
      default -> n.inputs();
    };
  }

  /**
   * Checks {@code graph} against ONNX's rules for a graph: every value is defined once (an input,
   * an initializer or a node's output), before any node reads it; every output is defined.
   *
   * @throws OnnxExportException saying which rule fails
   */
  static void check(GraphProto graph) {
    Set<String> defined = new HashSet<>();
    for (ValueInfoProto in : graph.getInputList()) {
      defineOnce(defined, in.getName(), "input");
    }
    for (TensorProto t : graph.getInitializerList()) {
      defineOnce(defined, t.getName(), "initializer");
      long count = 1;
      for (long d : t.getDimsList()) {
        count *= d;
      }
      int stored =
          t.getDataType() == TensorProto.DataType.INT64_VALUE
              ? t.getInt64DataCount()
              : t.getRawData().size() / 4;
      if (stored != count) {
        throw new OnnxExportException(
            "initializer '" + t.getName() + "' holds " + stored + " values, its shape " + count);
      }
    }
    Set<String> nodeNames = new HashSet<>();
    for (NodeProto n : graph.getNodeList()) {
      if (!nodeNames.add(n.getName())) {
        throw new OnnxExportException("two nodes are named '" + n.getName() + "'");
      }
      for (String in : n.getInputList()) {
        if (!in.isEmpty() && !defined.contains(in)) {
          throw new OnnxExportException(
              "node '" + n.getName() + "' reads '" + in + "' before it is defined");
        }
      }
      for (String out : n.getOutputList()) {
        defineOnce(defined, out, "output of node '" + n.getName() + "'");
      }
    }
    for (ValueInfoProto out : graph.getOutputList()) {
      if (!defined.contains(out.getName())) {
        throw new OnnxExportException("output '" + out.getName() + "' is never defined");
      }
    }
  }

  private static void defineOnce(Set<String> defined, String name, String what) {
    if (!defined.add(name)) {
      throw new OnnxExportException("'" + name + "' is defined twice (again as " + what + ")");
    }
  }

  private static ValueInfoProto valueInfo(String name, long[] dims) {
    return valueInfo(
        name, dims, java.util.Arrays.stream(dims).mapToObj(d -> d < 0 ? BATCH : "").toList());
  }

  /** A float tensor's value info; a negative dimension is the symbolic {@code dimParams[i]}. */
  private static ValueInfoProto valueInfo(String name, long[] dims, List<String> dimParams) {
    TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
    for (int i = 0; i < dims.length; i++) {
      shape.addDim(
          dims[i] < 0
              ? TensorShapeProto.Dimension.newBuilder().setDimParam(dimParams.get(i))
              : TensorShapeProto.Dimension.newBuilder().setDimValue(dims[i]));
    }
    return ValueInfoProto.newBuilder()
        .setName(name)
        .setType(
            TypeProto.newBuilder()
                .setTensorType(
                    TypeProto.Tensor.newBuilder()
                        .setElemType(TensorProto.DataType.FLOAT_VALUE)
                        .setShape(shape)))
        .build();
  }

  // ---- the rules ----

  private static List<String> identity(Builder g, Node n, List<String> in) {
    return g.node("Identity", n, in.subList(0, 1));
  }

  private static List<String> head(Builder g, Node n, List<String> in) {
    return g.node("Identity", n, in.subList(0, 1));
  }

  private static List<String> cast(Builder g, Node n, List<String> in) {
    String dtype = n.attrs().getOrDefault("dtype", "float32");
    int to =
        switch (dtype) {
          case "float32" -> TensorProto.DataType.FLOAT_VALUE;
          case "int32" -> TensorProto.DataType.INT32_VALUE;
          case "int64" -> TensorProto.DataType.INT64_VALUE;
          default -> throw refuse(n, "casts to " + dtype);
        };
    return List.of(g.node1("Cast", n.name(), in.subList(0, 1), g.rank(in.get(0)), g.i("to", to)));
  }

  private static List<String> dense(Builder g, Node n, List<String> in) {
    boolean flatten = bool(n, "flatten", true);
    boolean noBias = bool(n, "no_bias", false);
    String x = in.get(0);
    int rank = g.rank(x);
    if (flatten || rank == 2) {
      if (rank != 2) {
        x = g.node1("Flatten", n.name() + "_flatten", List.of(x), 2, g.i("axis", 1));
      }
      List<String> args = noBias ? List.of(x, in.get(1)) : List.of(x, in.get(1), in.get(2));
      return List.of(g.node1("Gemm", n.name(), args, 2, g.i("transB", 1)));
    }
    String wt =
        g.node1("Transpose", n.name() + "_weight_t", List.of(in.get(1)), 2, g.ints("perm", 1, 0));
    String mm = g.node1("MatMul", n.name() + (noBias ? "" : "_matmul"), List.of(x, wt), rank);
    if (noBias) {
      return List.of(mm);
    }
    return List.of(g.node1("Add", n.name(), List.of(mm, in.get(2)), rank));
  }

  private static void checkLayout(Node n) {
    String layout = n.attrs().getOrDefault("layout", "None");
    if (!layout.equals("None") && !layout.startsWith("NC")) {
      throw refuse(n, "layout " + layout + "; ONNX convolutions are channels-first");
    }
  }

  private static List<String> conv(Builder g, Node n, List<String> in) {
    checkLayout(n);
    long[] kernel = tuple(n, "kernel", null);
    int k = kernel.length;
    List<AttributeProto> a = new ArrayList<>();
    a.add(g.ints("kernel_shape", kernel));
    a.add(g.ints("strides", tuple(n, "stride", ones(k))));
    a.add(g.ints("dilations", tuple(n, "dilate", ones(k))));
    a.add(g.ints("pads", twice(tuple(n, "pad", new long[k]))));
    a.add(g.i("group", Long.parseLong(n.attrs().getOrDefault("num_group", "1"))));
    List<String> args = bool(n, "no_bias", false) ? in.subList(0, 2) : in.subList(0, 3);
    return List.of(g.node1("Conv", n.name(), args, k + 2, a.toArray(AttributeProto[]::new)));
  }

  private static List<String> deconv(Builder g, Node n, List<String> in) {
    checkLayout(n);
    long[] kernel = tuple(n, "kernel", null);
    int k = kernel.length;
    long[] target = tuple(n, "target_shape", new long[0]);
    if (Arrays.stream(target).anyMatch(t -> t != 0)) {
      throw refuse(n, "sets target_shape; give pad and adj instead");
    }
    List<AttributeProto> a = new ArrayList<>();
    a.add(g.ints("kernel_shape", kernel));
    a.add(g.ints("strides", tuple(n, "stride", ones(k))));
    a.add(g.ints("dilations", tuple(n, "dilate", ones(k))));
    a.add(g.ints("pads", twice(tuple(n, "pad", new long[k]))));
    a.add(g.ints("output_padding", tuple(n, "adj", new long[k])));
    a.add(g.i("group", Long.parseLong(n.attrs().getOrDefault("num_group", "1"))));
    List<String> args = bool(n, "no_bias", true) ? in.subList(0, 2) : in.subList(0, 3);
    return List.of(
        g.node1("ConvTranspose", n.name(), args, k + 2, a.toArray(AttributeProto[]::new)));
  }

  private static List<String> pool(Builder g, Node n, List<String> in) {
    checkLayout(n);
    String type = n.attrs().getOrDefault("pool_type", "max");
    int rank = g.rank(in.get(0));
    if (bool(n, "global_pool", false)) {
      String op =
          switch (type) {
            case "max" -> "GlobalMaxPool";
            case "avg" -> "GlobalAveragePool";
            default -> throw refuse(n, "pools by " + type + "; ONNX pools by max or avg");
          };
      return List.of(g.node1(op, n.name(), in, rank));
    }
    long[] kernel = tuple(n, "kernel", null);
    int k = kernel.length;
    List<AttributeProto> a = new ArrayList<>();
    a.add(g.ints("kernel_shape", kernel));
    a.add(g.ints("strides", tuple(n, "stride", ones(k))));
    a.add(g.ints("pads", twice(tuple(n, "pad", new long[k]))));
    String convention = n.attrs().getOrDefault("pooling_convention", "valid");
    if (convention.equals("full")) {
      a.add(g.i("ceil_mode", 1));
    } else if (!convention.equals("valid")) {
      throw refuse(n, "uses pooling_convention " + convention);
    }
    String op;
    switch (type) {
      case "max" -> op = "MaxPool";
      case "avg" -> {
        op = "AveragePool";
        a.add(g.i("count_include_pad", bool(n, "count_include_pad", true) ? 1 : 0));
      }
      default -> throw refuse(n, "pools by " + type + "; ONNX pools by max or avg");
    }
    return List.of(g.node1(op, n.name(), in, rank, a.toArray(AttributeProto[]::new)));
  }

  private static List<String> batchNorm(Builder g, Node n, List<String> in) {
    int axis = Integer.parseInt(n.attrs().getOrDefault("axis", "1"));
    int rank = g.rank(in.get(0));
    if (axis != 1 && !(rank > 0 && axis == 1 - rank)) {
      throw refuse(n, "normalises axis " + axis + "; ONNX BatchNormalization normalises axis 1");
    }
    if (bool(n, "output_mean_var", false)) {
      throw refuse(n, "outputs its mean and variance");
    }
    String gamma = in.get(1);
    if (bool(n, "fix_gamma", true)) {
      long[] dims = g.dims(gamma);
      float[] one = new float[(int) dims[0]];
      Arrays.fill(one, 1f);
      gamma = g.constant(n.name() + "_fixed_gamma", dims, one);
    }
    float eps = number(n.attrs().getOrDefault("eps", "0.001"));
    return List.of(
        g.node1(
            "BatchNormalization",
            n.name(),
            List.of(in.get(0), gamma, in.get(2), in.get(3), in.get(4)),
            rank,
            g.f("epsilon", eps)));
  }

  private static List<String> layerNorm(Builder g, Node n, List<String> in) {
    if (g.opset < 17) {
      throw refuse(n, "LayerNormalization needs opset 17 or later; export with --opset 17");
    }
    if (bool(n, "output_mean_var", false)) {
      throw refuse(n, "outputs its mean and variance");
    }
    int rank = g.rank(in.get(0));
    long axis = Long.parseLong(n.attrs().getOrDefault("axis", "-1"));
    if (axis != -1 && axis != rank - 1) {
      throw refuse(n, "normalises axis " + axis + ", not the last");
    }
    float eps = number(n.attrs().getOrDefault("eps", "1e-5"));
    return List.of(
        g.node1(
            "LayerNormalization",
            n.name(),
            in.subList(0, 3),
            rank,
            g.i("axis", -1),
            g.f("epsilon", eps)));
  }

  private static List<String> activation(Builder g, Node n, List<String> in) {
    String type = n.attrs().getOrDefault("act_type", "relu");
    String op =
        switch (type) {
          case "relu" -> "Relu";
          case "sigmoid" -> "Sigmoid";
          case "tanh" -> "Tanh";
          case "softrelu" -> "Softplus";
          case "softsign" -> "Softsign";
          case "mish", "log_sigmoid" -> null;
          default -> throw refuse(n, "activation " + type + " has no ONNX operator here");
        };
    if (op != null) {
      return g.node(op, n, in);
    }
    String x = in.get(0);
    int rank = g.rank(x);
    if (type.equals("log_sigmoid")) {
      String sig = g.node1("Sigmoid", n.name() + "_sigmoid", List.of(x), rank);
      return List.of(g.node1("Log", n.name(), List.of(sig), rank));
    }
    String soft = g.node1("Softplus", n.name() + "_softplus", List.of(x), rank);
    String tanh = g.node1("Tanh", n.name() + "_tanh", List.of(soft), rank);
    return List.of(g.node1("Mul", n.name(), List.of(x, tanh), rank));
  }

  private static List<String> leaky(Builder g, Node n, List<String> in) {
    String type = n.attrs().getOrDefault("act_type", "leaky");
    float slope = number(n.attrs().getOrDefault("slope", "0.25"));
    String x = in.get(0);
    int rank = g.rank(x);
    switch (type) {
      case "leaky":
        return List.of(g.node1("LeakyRelu", n.name(), List.of(x), rank, g.f("alpha", slope)));
      case "elu":
        return List.of(g.node1("Elu", n.name(), List.of(x), rank, g.f("alpha", slope)));
      case "selu":
        return List.of(g.node1("Selu", n.name(), List.of(x), rank));
      case "prelu":
        {
          String slopes = in.get(1);
          if (rank > 2) {
            long[] shaped = new long[rank - 1];
            Arrays.fill(shaped, 1);
            shaped[0] = -1;
            String to = g.longs(n.name() + "_slopes_shape", shaped);
            slopes = g.node1("Reshape", n.name() + "_slopes", List.of(slopes, to), rank - 1);
          }
          return List.of(g.node1("PRelu", n.name(), List.of(x, slopes), rank));
        }
      case "gelu":
        {
          String root2 = g.constant(n.name() + "_sqrt2", new long[0], new float[] {1.4142135f});
          String one = g.constant(n.name() + "_one", new long[0], new float[] {1f});
          String half = g.constant(n.name() + "_half", new long[0], new float[] {0.5f});
          String d = g.node1("Div", n.name() + "_div", List.of(x, root2), rank);
          String e = g.node1("Erf", n.name() + "_erf", List.of(d), rank);
          String p = g.node1("Add", n.name() + "_add", List.of(e, one), rank);
          String m = g.node1("Mul", n.name() + "_mul", List.of(x, p), rank);
          return List.of(g.node1("Mul", n.name(), List.of(m, half), rank));
        }
      default:
        throw refuse(n, "LeakyReLU act_type " + type + " has no ONNX form here");
    }
  }

  private static List<String> reshape(Builder g, Node n, List<String> in) {
    long[] shape = tuple(n, "shape", null);
    for (long d : shape) {
      if (d < -1) {
        throw refuse(n, "uses MXNet's special reshape code " + d + " (ONNX knows 0 and -1)");
      }
    }
    int rank = g.rank(in.get(0));
    int m = shape.length;
    boolean copies = Arrays.stream(shape).anyMatch(d -> d == 0);
    if (!bool(n, "reverse", false) || !copies || rank == m) {
      // MXNet's reverse only changes where a 0 copies from; aligned ranks make it the same
      String s = g.longs(n.name() + "_shape", shape);
      return List.of(g.node1("Reshape", n.name(), List.of(in.get(0), s), m));
    }
    if (rank < 0) {
      throw refuse(n, "reshapes in reverse an input of unknown rank");
    }
    // a 0 at position j copies input axis j + rank - m: read it from the input's shape
    String whole = g.node1("Shape", n.name() + "_input_shape", List.of(in.get(0)), 1);
    List<String> pieces = new ArrayList<>();
    for (int j = 0; j < m; j++) {
      if (shape[j] != 0) {
        pieces.add(g.longs(n.name() + "_dim" + j, new long[] {shape[j]}));
        continue;
      }
      long axis = j + rank - m;
      if (axis < 0) {
        throw refuse(n, "copies an axis its input lacks");
      }
      pieces.add(
          g.node1(
              "Slice",
              n.name() + "_dim" + j,
              List.of(
                  whole,
                  g.longs(n.name() + "_dim" + j + "_from", new long[] {axis}),
                  g.longs(n.name() + "_dim" + j + "_to", new long[] {axis + 1})),
              1));
    }
    String target = g.node1("Concat", n.name() + "_target", pieces, 1, g.i("axis", 0));
    return List.of(g.node1("Reshape", n.name(), List.of(in.get(0), target), m));
  }

  /**
   * MXNet's fused {@code RNN} as one ONNX {@code RNN}, {@code GRU} or {@code LSTM} per layer: the
   * flat parameter vector (every layer's and direction's input and hidden weights, then their
   * biases) cut into ONNX's W, R and B, the gates reordered (LSTM: MXNet ifgo to ONNX iofc; GRU:
   * MXNet rzn to ONNX zrh, linear_before_reset), the outputs reshaped to MXNet's.
   */
  private static List<String> rnn(Builder g, Node n, List<String> in) {
    String mode = n.attrs().getOrDefault("mode", "lstm");
    int h = Integer.parseInt(n.attrs().get("state_size"));
    int layers = Integer.parseInt(n.attrs().getOrDefault("num_layers", "1"));
    int dirs = bool(n, "bidirectional", false) ? 2 : 1;
    if (!n.attrs().getOrDefault("projection_size", "None").equals("None")) {
      throw refuse(n, "projects its state (projection_size)");
    }
    if (bool(n, "use_sequence_length", false)) {
      throw refuse(n, "reads sequence lengths");
    }
    String op;
    int gates;
    int[] order;
    switch (mode) {
      case "lstm" -> {
        op = "LSTM";
        gates = 4;
        order = new int[] {0, 3, 1, 2};
      }
      case "gru" -> {
        op = "GRU";
        gates = 3;
        order = new int[] {1, 0, 2};
      }
      case "rnn_tanh", "rnn_relu" -> {
        op = "RNN";
        gates = 1;
        order = new int[] {0};
      }
      default -> throw refuse(n, "mode " + mode);
    }
    float[] flat = g.paramValues(in.get(1));
    if (flat == null) {
      throw refuse(n, "its parameters are computed, not stored; ONNX needs them as weights");
    }
    long gh = (long) gates * h;
    // total = dirs*gh*(in0 + h) + (layers-1)*dirs*gh*(dirs*h + h) + layers*dirs*2*gh
    long rest =
        flat.length
            - (long) (layers - 1) * dirs * gh * (dirs * h + h)
            - (long) layers * dirs * 2 * gh;
    long in0 = rest / (dirs * gh) - h;
    if (in0 <= 0 || rest % (dirs * gh) != 0) {
      throw refuse(n, "has " + flat.length + " parameters, which fit no input size");
    }
    int rank = g.rank(in.get(0));
    boolean lstm = op.equals("LSTM");
    String x = in.get(0);
    int at = 0;
    float[][][] wx = new float[layers][][];
    float[][][] wh = new float[layers][][];
    for (int l = 0; l < layers; l++) {
      long inL = l == 0 ? in0 : (long) dirs * h;
      wx[l] = new float[dirs][];
      wh[l] = new float[dirs][];
      for (int d = 0; d < dirs; d++) {
        wx[l][d] = reorder(flat, at, gates, h, (int) inL, order);
        at += (int) (gh * inL);
        wh[l][d] = reorder(flat, at, gates, h, h, order);
        at += (int) (gh * h);
      }
    }
    float[][][] bx = new float[layers][dirs][];
    float[][][] bh = new float[layers][dirs][];
    for (int l = 0; l < layers; l++) {
      for (int d = 0; d < dirs; d++) {
        bx[l][d] = reorder(flat, at, gates, h, 1, order);
        at += (int) gh;
        bh[l][d] = reorder(flat, at, gates, h, 1, order);
        at += (int) gh;
      }
    }
    boolean[] stateGiven = new boolean[2];
    for (int k = 0; k < 2 && 2 + k < in.size(); k++) {
      stateGiven[k] = !g.isState(in.get(2 + k));
    }
    List<String> hs = new ArrayList<>();
    List<String> cs = new ArrayList<>();
    for (int l = 0; l < layers; l++) {
      long inL = l == 0 ? in0 : (long) dirs * h;
      String p = n.name() + "_l" + l;
      String w = g.constant(p + "_W", new long[] {dirs, gh, inL}, concat(wx[l]));
      String r = g.constant(p + "_R", new long[] {dirs, gh, h}, concat(wh[l]));
      float[][] b = new float[dirs * 2][];
      for (int d = 0; d < dirs; d++) {
        b[2 * d] = bx[l][d];
        b[2 * d + 1] = bh[l][d];
      }
      String bias = g.constant(p + "_B", new long[] {dirs, 2 * gh}, concat(b));
      List<String> args = new ArrayList<>(List.of(x, w, r, bias, ""));
      for (int k = 0; k < (lstm ? 2 : 1); k++) {
        if (stateGiven[k]) {
          String slice =
              g.node1(
                  "Slice",
                  p + "_initial" + k,
                  List.of(
                      in.get(2 + k),
                      g.longs(p + "_initial" + k + "_from", new long[] {(long) l * dirs}),
                      g.longs(p + "_initial" + k + "_to", new long[] {(long) (l + 1) * dirs}),
                      g.longs(p + "_initial" + k + "_axes", new long[] {0})),
                  3);
          args.add(slice);
        } else {
          args.add("");
        }
      }
      while (args.get(args.size() - 1).isEmpty()) {
        args.remove(args.size() - 1);
      }
      List<String> outs = new ArrayList<>(List.of(p + "_Y", p + "_Yh"));
      if (lstm) {
        outs.add(p + "_Yc");
      }
      NodeProto.Builder node = g.nodeProto(op, p, args, outs);
      node.addAttribute(g.i("hidden_size", h));
      node.addAttribute(g.s("direction", dirs == 2 ? "bidirectional" : "forward"));
      if (op.equals("GRU")) {
        node.addAttribute(g.i("linear_before_reset", 1));
      }
      if (mode.equals("rnn_relu")) {
        AttributeProto.Builder acts =
            AttributeProto.newBuilder()
                .setName("activations")
                .setType(AttributeProto.AttributeType.STRINGS);
        for (int d = 0; d < dirs; d++) {
          acts.addStrings(ByteString.copyFromUtf8("Relu"));
        }
        node.addAttribute(acts);
      }
      g.add(node);
      g.define(p + "_Y", 4);
      g.define(p + "_Yh", 3);
      g.define(p + "_Yc", 3);
      String t =
          g.node1("Transpose", p + "_tndh", List.of(p + "_Y"), 4, g.ints("perm", 0, 2, 1, 3));
      x =
          g.node1(
              "Reshape",
              layers == l + 1 ? n.name() : p + "_out",
              List.of(t, g.longs(p + "_out_shape", new long[] {0, 0, -1})),
              3);
      hs.add(p + "_Yh");
      cs.add(p + "_Yc");
    }
    List<String> outputs = new ArrayList<>(List.of(x));
    if (bool(n, "state_outputs", false)) {
      outputs.add(
          layers == 1 ? hs.get(0) : g.node1("Concat", n.name() + "_state", hs, 3, g.i("axis", 0)));
      if (lstm) {
        outputs.add(
            layers == 1
                ? cs.get(0)
                : g.node1("Concat", n.name() + "_state_cell", cs, 3, g.i("axis", 0)));
      }
    }
    if (rank != 3 && rank >= 0) {
      throw refuse(n, "reads a sequence of rank " + rank + ", not (steps, batch, features)");
    }
    return outputs;
  }

  /** One matrix of {@code gates} blocks of {@code h} rows of {@code cols}, blocks in ONNX order. */
  private static float[] reorder(float[] flat, int at, int gates, int h, int cols, int[] order) {
    float[] out = new float[gates * h * cols];
    int block = h * cols;
    for (int k = 0; k < gates; k++) {
      System.arraycopy(flat, at + order[k] * block, out, k * block, block);
    }
    return out;
  }

  private static float[] concat(float[]... parts) {
    int size = 0;
    for (float[] p : parts) {
      size += p.length;
    }
    float[] out = new float[size];
    int at = 0;
    for (float[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }

  private static List<String> softmax(Builder g, Node n, List<String> in) {
    String t = n.attrs().getOrDefault("temperature", "None");
    long axis = Long.parseLong(n.attrs().getOrDefault("axis", "-1"));
    int rank = g.rank(in.get(0));
    String x = in.get(0);
    if (!t.equals("None") && number(t) != 1f) {
      String c = g.constant(n.name() + "_temperature", new long[0], new float[] {number(t)});
      x = g.node1("Div", n.name() + "_scaled", List.of(x, c), rank);
    }
    if (!bool(n, "use_length", false)) {
      return List.of(g.node1("Softmax", n.name(), List.of(x), rank, g.i("axis", axis)));
    }
    if (axis != -1 && axis != rank - 1) {
      throw refuse(n, "uses lengths along axis " + axis + ", not the last");
    }
    // positions at or past a row's length get no weight: mask = arange(last axis) < length
    String p = n.name();
    String shape = g.node1("Shape", p + "_data_shape", List.of(x), 1);
    String last =
        g.node1(
            "Slice",
            p + "_last",
            List.of(
                shape,
                g.longs(p + "_last_from", new long[] {-1}),
                g.longs(p + "_last_to", new long[] {Long.MAX_VALUE})),
            1);
    String size = g.node1("Squeeze", p + "_size", List.of(last), 0);
    String positions =
        g.node1(
            "Range",
            p + "_positions",
            List.of(g.scalarLong(p + "_zero", 0), size, g.scalarLong(p + "_one", 1)),
            1);
    String lengths =
        g.node1(
            "Cast",
            p + "_lengths",
            List.of(in.get(1)),
            rank - 1,
            g.i("to", TensorProto.DataType.INT64_VALUE));
    String column =
        g.node1(
            "Unsqueeze",
            p + "_lengths_column",
            List.of(lengths, g.longs(p + "_lengths_axis", new long[] {-1})),
            rank);
    String mask = g.node1("Less", p + "_mask", List.of(positions, column), rank);
    String none = g.constant(p + "_none", new long[0], new float[] {Float.NEGATIVE_INFINITY});
    String masked = g.node1("Where", p + "_masked", List.of(mask, x, none), rank);
    String soft = g.node1("Softmax", p + "_soft", List.of(masked), rank, g.i("axis", -1));
    String zero = g.constant(p + "_zero_weight", new long[0], new float[] {0f});
    return List.of(g.node1("Where", p, List.of(mask, soft, zero), rank));
  }

  private static List<String> softmaxOut(Builder g, Node n, List<String> in) {
    int rank = g.rank(in.get(0));
    if (bool(n, "multi_output", false)) {
      return List.of(g.node1("Softmax", n.name(), in.subList(0, 1), rank, g.i("axis", 1)));
    }
    if (rank != 2) {
      throw refuse(n, "is a SoftmaxOutput over rank " + rank + " without multi_output");
    }
    return List.of(g.node1("Softmax", n.name(), in.subList(0, 1), rank, g.i("axis", 1)));
  }

  private static List<String> scalar(
      Builder g, Node n, List<String> in, String op, boolean reversed) {
    float v = number(n.attrs().getOrDefault("scalar", "1"));
    String c = g.constant(n.name() + "_scalar", new long[0], new float[] {v});
    List<String> args = reversed ? List.of(c, in.get(0)) : List.of(in.get(0), c);
    return List.of(g.node1(op, n.name(), args, g.rank(in.get(0))));
  }

  private static List<String> concat(Builder g, Node n, List<String> in) {
    long dim = Long.parseLong(n.attrs().getOrDefault("dim", "1"));
    return List.of(g.node1("Concat", n.name(), in, g.rank(in.get(0)), g.i("axis", dim)));
  }

  private static List<String> transpose(Builder g, Node n, List<String> in) {
    int rank = g.rank(in.get(0));
    long[] axes = tuple(n, "axes", new long[0]);
    if (axes.length == 0) {
      if (rank < 0) {
        throw refuse(n, "reverses axes of an input of unknown rank");
      }
      axes = new long[rank];
      for (int i = 0; i < rank; i++) {
        axes[i] = rank - 1 - i;
      }
    }
    return List.of(g.node1("Transpose", n.name(), in, axes.length, g.ints("perm", axes)));
  }

  private static List<String> swapAxis(Builder g, Node n, List<String> in) {
    int rank = g.rank(in.get(0));
    if (rank < 0) {
      throw refuse(n, "swaps axes of an input of unknown rank");
    }
    int a = Math.floorMod(Integer.parseInt(n.attrs().getOrDefault("dim1", "0")), rank);
    int b = Math.floorMod(Integer.parseInt(n.attrs().getOrDefault("dim2", "0")), rank);
    long[] perm = new long[rank];
    for (int i = 0; i < rank; i++) {
      perm[i] = i == a ? b : i == b ? a : i;
    }
    return List.of(g.node1("Transpose", n.name(), in, rank, g.ints("perm", perm)));
  }

  private static List<String> logSoftmax(Builder g, Node n, List<String> in) {
    long axis = Long.parseLong(n.attrs().getOrDefault("axis", "-1"));
    if (!n.attrs().getOrDefault("temperature", "None").equals("None")) {
      throw refuse(n, "has a temperature");
    }
    return List.of(
        g.node1("LogSoftmax", n.name(), in.subList(0, 1), g.rank(in.get(0)), g.i("axis", axis)));
  }

  private static List<String> instanceNorm(Builder g, Node n, List<String> in) {
    float eps = number(n.attrs().getOrDefault("eps", "0.001"));
    return List.of(
        g.node1(
            "InstanceNormalization",
            n.name(),
            in.subList(0, 3),
            g.rank(in.get(0)),
            g.f("epsilon", eps)));
  }

  /**
   * MXNet's {@code pad_width} (before and after, axis by axis) as ONNX's pads (befores, afters).
   */
  private static List<String> pad(Builder g, Node n, List<String> in) {
    String mode = n.attrs().getOrDefault("mode", "constant");
    if (!mode.equals("constant") && !mode.equals("edge") && !mode.equals("reflect")) {
      throw refuse(n, "pads in mode " + mode);
    }
    long[] w = tuple(n, "pad_width", new long[0]);
    int rank = g.rank(in.get(0));
    if (w.length != 2 * rank) {
      throw refuse(n, "has pad_width " + java.util.Arrays.toString(w) + " for rank " + rank);
    }
    long[] pads = new long[2 * rank];
    for (int a = 0; a < rank; a++) {
      pads[a] = w[2 * a];
      pads[rank + a] = w[2 * a + 1];
    }
    List<String> args = new ArrayList<>(List.of(in.get(0), g.longs(n.name() + "_pads", pads)));
    if (mode.equals("constant")) {
      float v = number(n.attrs().getOrDefault("constant_value", "0"));
      args.add(g.constant(n.name() + "_value", new long[0], new float[] {v}));
    }
    return List.of(g.node1("Pad", n.name(), args, rank, g.s("mode", mode)));
  }

  /** MXNet's {@code reps}, shorter than the rank, prepended with ones as MXNet does. */
  private static List<String> tile(Builder g, Node n, List<String> in) {
    long[] reps = tuple(n, "reps", new long[0]);
    int rank = g.rank(in.get(0));
    if (reps.length > rank) {
      throw refuse(n, "tiles " + reps.length + " axes of a rank-" + rank + " input");
    }
    long[] full = new long[rank];
    java.util.Arrays.fill(full, 1);
    System.arraycopy(reps, 0, full, rank - reps.length, reps.length);
    return List.of(
        g.node1("Tile", n.name(), List.of(in.get(0), g.longs(n.name() + "_reps", full)), rank));
  }

  private static List<String> clip(Builder g, Node n, List<String> in) {
    float lo = number(n.attrs().get("a_min"));
    float hi = number(n.attrs().get("a_max"));
    String min = g.constant(n.name() + "_min", new long[0], new float[] {lo});
    String max = g.constant(n.name() + "_max", new long[0], new float[] {hi});
    return List.of(g.node1("Clip", n.name(), List.of(in.get(0), min, max), g.rank(in.get(0))));
  }

  private static List<String> embedding(Builder g, Node n, List<String> in) {
    int rank = g.rank(in.get(0));
    String ids =
        g.node1(
            "Cast",
            n.name() + "_ids",
            List.of(in.get(0)),
            rank,
            g.i("to", TensorProto.DataType.INT64_VALUE));
    return List.of(g.node1("Gather", n.name(), List.of(in.get(1), ids), rank + 1, g.i("axis", 0)));
  }

  private static List<String> sliceAxis(Builder g, Node n, List<String> in) {
    long axis = Long.parseLong(n.attrs().get("axis"));
    long begin = Long.parseLong(n.attrs().get("begin"));
    String endText = n.attrs().getOrDefault("end", "None");
    long end = endText.equals("None") ? Long.MAX_VALUE : Long.parseLong(endText);
    List<String> args =
        List.of(
            in.get(0),
            g.longs(n.name() + "_starts", new long[] {begin}),
            g.longs(n.name() + "_ends", new long[] {end}),
            g.longs(n.name() + "_axes", new long[] {axis}));
    return List.of(g.node1("Slice", n.name(), args, g.rank(in.get(0))));
  }

  private static List<String> split(Builder g, Node n, List<String> in) {
    int parts = Integer.parseInt(n.attrs().get("num_outputs"));
    long axis = Long.parseLong(n.attrs().getOrDefault("axis", "1"));
    boolean squeeze = bool(n, "squeeze_axis", false);
    int rank = g.rank(in.get(0));
    List<String> outs = new ArrayList<>();
    for (int i = 0; i < parts; i++) {
      outs.add(n.name() + (squeeze ? "_part" : "_") + i);
    }
    AttributeProto[] a =
        g.opset >= 18
            ? new AttributeProto[] {g.i("axis", axis), g.i("num_outputs", parts)}
            : new AttributeProto[] {g.i("axis", axis)};
    g.add(g.nodeProto("Split", n.name(), in.subList(0, 1), outs).addAllAttribute(Arrays.asList(a)));
    if (!squeeze) {
      outs.forEach(o -> g.define(o, rank));
      return outs;
    }
    String axes = g.longs(n.name() + "_axes", new long[] {axis});
    List<String> squeezed = new ArrayList<>();
    for (int i = 0; i < parts; i++) {
      g.define(outs.get(i), rank);
      squeezed.add(g.node1("Squeeze", n.name() + "_" + i, List.of(outs.get(i), axes), rank - 1));
    }
    return squeezed;
  }

  private static List<String> squeeze(Builder g, Node n, List<String> in) {
    long[] axes = tuple(n, "axis", new long[0]);
    int rank = g.rank(in.get(0));
    if (axes.length == 0) {
      throw refuse(n, "squeezes every axis of size one, which depends on the shape");
    }
    return List.of(
        g.node1(
            "Squeeze",
            n.name(),
            List.of(in.get(0), g.longs(n.name() + "_axes", axes)),
            rank - axes.length));
  }

  private static List<String> reduce(Builder g, Node n, List<String> in, String op) {
    if (bool(n, "exclude", false)) {
      throw refuse(n, "reduces every axis but the ones given");
    }
    long[] axes = tuple(n, "axis", new long[0]);
    boolean keep = bool(n, "keepdims", false);
    int rank = g.rank(in.get(0));
    if (axes.length == 0) {
      axes = new long[rank];
      for (int i = 0; i < rank; i++) {
        axes[i] = i;
      }
    }
    int outRank = keep ? rank : rank - axes.length;
    boolean axesAsInput = op.equals("ReduceSum") || g.opset >= 18;
    if (axesAsInput) {
      return List.of(
          g.node1(
              op,
              n.name(),
              List.of(in.get(0), g.longs(n.name() + "_axes", axes)),
              outRank,
              g.i("keepdims", keep ? 1 : 0)));
    }
    return List.of(
        g.node1(op, n.name(), in, outRank, g.ints("axes", axes), g.i("keepdims", keep ? 1 : 0)));
  }

  private static List<String> dot(Builder g, Node n, List<String> in) {
    String a = in.get(0);
    String b = in.get(1);
    if (g.rank(a) != 2 || g.rank(b) != 2) {
      throw refuse(n, "dot of ranks other than 2 and 2 (MXNet's flattening product)");
    }
    if (bool(n, "transpose_a", false)) {
      a = g.node1("Transpose", n.name() + "_a", List.of(a), 2, g.ints("perm", 1, 0));
    }
    if (bool(n, "transpose_b", false)) {
      b = g.node1("Transpose", n.name() + "_b", List.of(b), 2, g.ints("perm", 1, 0));
    }
    return List.of(g.node1("MatMul", n.name(), List.of(a, b), 2));
  }

  private static List<String> batchDot(Builder g, Node n, List<String> in) {
    String a = in.get(0);
    String b = in.get(1);
    int rank = g.rank(a);
    if (rank != 3 || g.rank(b) != 3) {
      throw refuse(n, "batch_dot of ranks other than 3");
    }
    if (bool(n, "transpose_a", false)) {
      a = g.node1("Transpose", n.name() + "_a", List.of(a), 3, g.ints("perm", 0, 2, 1));
    }
    if (bool(n, "transpose_b", false)) {
      b = g.node1("Transpose", n.name() + "_b", List.of(b), 3, g.ints("perm", 0, 2, 1));
    }
    return List.of(g.node1("MatMul", n.name(), List.of(a, b), 3));
  }

  private static List<String> upsampling(Builder g, Node n, List<String> in) {
    String type = n.attrs().getOrDefault("sample_type", "nearest");
    if (!type.equals("nearest")) {
      throw refuse(
          n, "upsamples by " + type + " (a learned deconvolution); only nearest is exported");
    }
    if (in.size() != 1) {
      throw refuse(n, "upsamples several inputs at once");
    }
    float scale = number(n.attrs().get("scale"));
    int rank = g.rank(in.get(0));
    float[] scales = new float[rank];
    Arrays.fill(scales, 1f);
    for (int i = 2; i < rank; i++) {
      scales[i] = scale;
    }
    String s = g.constant(n.name() + "_scales", new long[] {rank}, scales);
    return List.of(
        g.node1(
            "Resize",
            n.name(),
            List.of(in.get(0), "", s),
            rank,
            g.s("mode", "nearest"),
            g.s("nearest_mode", "floor"),
            g.s("coordinate_transformation_mode", "asymmetric")));
  }

  private static List<String> bilinear(Builder g, Node n, List<String> in) {
    String sh = n.attrs().get("scale_height");
    String sw = n.attrs().get("scale_width");
    String mode = n.attrs().getOrDefault("mode", "size");
    if (sh == null || sw == null || !mode.equals("size") || in.size() != 1) {
      throw refuse(n, "resizes to a size given otherwise than by scale_height and scale_width");
    }
    String s =
        g.constant(
            n.name() + "_scales", new long[] {4}, new float[] {1, 1, number(sh), number(sw)});
    return List.of(
        g.node1(
            "Resize",
            n.name(),
            List.of(in.get(0), "", s),
            4,
            g.s("mode", "linear"),
            g.s("coordinate_transformation_mode", "align_corners")));
  }

  private static List<String> filled(Builder g, Node n, List<String> in, float value) {
    String shape = g.node1("Shape", n.name() + "_like_shape", List.of(in.get(0)), 1);
    String v = g.constant(n.name() + "_value", new long[0], new float[] {value});
    return List.of(g.node1("Expand", n.name(), List.of(v, shape), g.rank(in.get(0))));
  }

  private static List<String> arangeLike(Builder g, Node n, List<String> in) {
    String axisText = n.attrs().getOrDefault("axis", "None");
    if (axisText.equals("None")) {
      throw refuse(n, "ranges over every element (no axis)");
    }
    if (!n.attrs().getOrDefault("repeat", "1").equals("1")) {
      throw refuse(n, "repeats its values");
    }
    long axis = Long.parseLong(axisText);
    float start = number(n.attrs().getOrDefault("start", "0"));
    float step = number(n.attrs().getOrDefault("step", "1"));
    String p = n.name();
    String shape = g.node1("Shape", p + "_data_shape", List.of(in.get(0)), 1);
    String dim =
        g.node1(
            "Slice",
            p + "_dim",
            List.of(
                shape,
                g.longs(p + "_dim_from", new long[] {axis}),
                g.longs(p + "_dim_to", new long[] {axis == -1 ? Long.MAX_VALUE : axis + 1})),
            1);
    String count = g.node1("Squeeze", p + "_count", List.of(dim), 0);
    String real =
        g.node1(
            "Cast", p + "_count_f", List.of(count), 0, g.i("to", TensorProto.DataType.FLOAT_VALUE));
    String first = g.constant(p + "_start", new long[0], new float[] {start});
    String delta = g.constant(p + "_step", new long[0], new float[] {step});
    String span = g.node1("Mul", p + "_span", List.of(real, delta), 0);
    String limit = g.node1("Add", p + "_limit", List.of(span, first), 0);
    return List.of(g.node1("Range", p, List.of(first, limit, delta), 1));
  }

  private static List<String> broadcastLike(Builder g, Node n, List<String> in) {
    String p = n.name();
    String other = g.node1("Shape", p + "_like_shape", List.of(in.get(1)), 1);
    long[] lhsAxes = tuple(n, "lhs_axes", new long[0]);
    long[] rhsAxes = tuple(n, "rhs_axes", new long[0]);
    int rank = g.rank(in.get(0));
    if (lhsAxes.length == 0) {
      return List.of(g.node1("Expand", p, List.of(in.get(0), other), g.rank(in.get(1))));
    }
    if (rank < 0 || lhsAxes.length != rhsAxes.length) {
      throw refuse(n, "broadcasts axes it cannot pair");
    }
    List<String> pieces = new ArrayList<>();
    for (int i = 0; i < rank; i++) {
      int k = -1;
      for (int j = 0; j < lhsAxes.length; j++) {
        if (Math.floorMod(lhsAxes[j], rank) == i) {
          k = j;
        }
      }
      if (k < 0) {
        pieces.add(g.longs(p + "_dim" + i, new long[] {1}));
      } else {
        long r = rhsAxes[k];
        pieces.add(
            g.node1(
                "Slice",
                p + "_dim" + i,
                List.of(
                    other,
                    g.longs(p + "_dim" + i + "_from", new long[] {r}),
                    g.longs(p + "_dim" + i + "_to", new long[] {r == -1 ? Long.MAX_VALUE : r + 1})),
                1));
      }
    }
    String target = g.node1("Concat", p + "_target", pieces, 1, g.i("axis", 0));
    return List.of(g.node1("Expand", p, List.of(in.get(0), target), rank));
  }

  private static List<String> lrn(Builder g, Node n, List<String> in) {
    return List.of(
        g.node1(
            "LRN",
            n.name(),
            in,
            g.rank(in.get(0)),
            g.i("size", Long.parseLong(n.attrs().get("nsize"))),
            g.f("alpha", number(n.attrs().getOrDefault("alpha", "0.0001"))),
            g.f("beta", number(n.attrs().getOrDefault("beta", "0.75"))),
            g.f("bias", number(n.attrs().getOrDefault("knorm", "2")))));
  }

  // ---- attributes ----

  private static OnnxExportException refuse(Node n, String why) {
    return new OnnxExportException("node '" + n.name() + "' (" + n.op() + "): " + why);
  }

  /** An MXNet float attribute, {@code inf}, {@code -inf} and {@code nan} included. */
  private static float number(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "inf", "+inf", "infinity" -> Float.POSITIVE_INFINITY;
      case "-inf", "-infinity" -> Float.NEGATIVE_INFINITY;
      case "nan" -> Float.NaN;
      default -> Float.parseFloat(text);
    };
  }

  private static boolean bool(Node n, String key, boolean otherwise) {
    String v = n.attrs().get(key);
    if (v == null) {
      return otherwise;
    }
    return v.equalsIgnoreCase("true") || v.equals("1");
  }

  /** An MXNet tuple attribute such as {@code (3, 3)}; {@code otherwise} when absent. */
  private static long[] tuple(Node n, String key, long[] otherwise) {
    String v = n.attrs().get(key);
    if (v == null || v.equals("None")) {
      if (otherwise == null) {
        throw refuse(n, "has no " + key);
      }
      return otherwise;
    }
    String body = v.replaceAll("[()\\[\\]\\s]", "");
    if (body.isEmpty()) {
      return new long[0];
    }
    return Arrays.stream(body.split(","))
        .filter(s -> !s.isEmpty())
        .mapToLong(
            s -> {
              String t = s.toLowerCase(Locale.ROOT);
              return t.equals("none") ? 0 : Long.parseLong(t.replace("l", ""));
            })
        .toArray();
  }

  private static long[] ones(int k) {
    long[] o = new long[k];
    Arrays.fill(o, 1);
    return o;
  }

  private static long[] twice(long[] pads) {
    long[] both = new long[pads.length * 2];
    System.arraycopy(pads, 0, both, 0, pads.length);
    System.arraycopy(pads, 0, both, pads.length, pads.length);
    return both;
  }

  /** The graph under construction, with the rank of each value and the initializers used. */
  static final class Builder {
    final int opset;
    final GraphProto.Builder graph = GraphProto.newBuilder();
    private final Map<String, Array> params;
    private final Map<String, Integer> ranks = new LinkedHashMap<>();
    private final Map<String, Array> constants = new HashMap<>();

    Builder(int opset, Map<String, Array> params) {
      this.opset = opset;
      this.params = params;
    }

    void define(String name, int rank) {
      ranks.put(name, rank);
    }

    int rank(String value) {
      Integer r = ranks.get(value);
      return r == null ? -1 : r;
    }

    long[] dims(String value) {
      Array a = params.containsKey(value) ? params.get(value) : constants.get(value);
      if (a == null) {
        throw new IllegalStateException("'" + value + "' is no parameter");
      }
      return a.dims();
    }

    private final Set<String> states = new HashSet<>();

    /** A recurrent state variable: zeros, left out of the graph. */
    String state(String name) {
      states.add(name);
      return name;
    }

    boolean isState(String value) {
      return states.contains(value);
    }

    /** The values of parameter {@code value}, or null if it is no parameter. */
    float[] paramValues(String value) {
      Array a = params.get(value);
      return a == null ? null : a.data();
    }

    String initializer(String name) {
      Array a = params.get(name);
      graph.addInitializer(floats(name, a.dims(), a.data()));
      define(name, a.dims().length);
      return name;
    }

    String constant(String name, long[] dims, float[] data) {
      constants.put(name, new Array(dims, data));
      graph.addInitializer(floats(name, dims, data));
      define(name, dims.length);
      return name;
    }

    /** A scalar int64 constant. */
    String scalarLong(String name, long value) {
      graph.addInitializer(
          TensorProto.newBuilder()
              .setName(name)
              .setDataType(TensorProto.DataType.INT64_VALUE)
              .addInt64Data(value));
      define(name, 0);
      return name;
    }

    String longs(String name, long[] data) {
      TensorProto.Builder t =
          TensorProto.newBuilder()
              .setName(name)
              .setDataType(TensorProto.DataType.INT64_VALUE)
              .addDims(data.length);
      for (long v : data) {
        t.addInt64Data(v);
      }
      graph.addInitializer(t);
      define(name, 1);
      return name;
    }

    private static TensorProto floats(String name, long[] dims, float[] data) {
      ByteBuffer b = ByteBuffer.allocate(data.length * 4).order(ByteOrder.LITTLE_ENDIAN);
      b.asFloatBuffer().put(data);
      TensorProto.Builder t =
          TensorProto.newBuilder()
              .setName(name)
              .setDataType(TensorProto.DataType.FLOAT_VALUE)
              .setRawData(ByteString.copyFrom(b.array()));
      for (long d : dims) {
        t.addDims(d);
      }
      return t.build();
    }

    NodeProto.Builder nodeProto(String op, String name, List<String> in, List<String> out) {
      return NodeProto.newBuilder().setOpType(op).setName(name).addAllInput(in).addAllOutput(out);
    }

    void add(NodeProto.Builder n) {
      graph.addNode(n);
    }

    /** The outputs' names, which no other value may take. */
    final Set<String> reserved = new HashSet<>();

    /**
     * One node {@code name} with one output of the same name (or, if an output of the model that is
     * another value has it, with {@code _value} added), of rank {@code rank}.
     */
    String node1(String op, String name, List<String> in, int rank, AttributeProto... attrs) {
      while (reserved.contains(name)) {
        name = name + "_value";
      }
      NodeProto.Builder n = nodeProto(op, name, in, List.of(name));
      n.addAllAttribute(Arrays.asList(attrs));
      add(n);
      define(name, rank);
      return name;
    }

    /** The node of MXNet node {@code n} as ONNX {@code op}, keeping the rank of its input. */
    List<String> node(String op, Node n, List<String> in, AttributeProto... attrs) {
      int rank = -1;
      for (String i : in) {
        rank = Math.max(rank, rank(i));
      }
      return List.of(node1(op, n.name(), in, rank, attrs));
    }

    AttributeProto i(String name, long v) {
      return AttributeProto.newBuilder()
          .setName(name)
          .setType(AttributeProto.AttributeType.INT)
          .setI(v)
          .build();
    }

    AttributeProto f(String name, float v) {
      return AttributeProto.newBuilder()
          .setName(name)
          .setType(AttributeProto.AttributeType.FLOAT)
          .setF(v)
          .build();
    }

    AttributeProto s(String name, String v) {
      return AttributeProto.newBuilder()
          .setName(name)
          .setType(AttributeProto.AttributeType.STRING)
          .setS(ByteString.copyFromUtf8(v))
          .build();
    }

    AttributeProto ints(String name, long... v) {
      AttributeProto.Builder a =
          AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INTS);
      for (long x : v) {
        a.addInts(x);
      }
      return a.build();
    }
  }
}
