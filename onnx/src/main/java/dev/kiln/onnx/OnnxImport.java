package dev.kiln.onnx;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.PoolConvention;
import dev.kiln.annotations.Slice;
import dev.kiln.names.AuxRole;
import dev.kiln.names.ParamRole;
import dev.kiln.onnx.proto.Onnx.AttributeProto;
import dev.kiln.onnx.proto.Onnx.GraphProto;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.onnx.proto.Onnx.NodeProto;
import dev.kiln.onnx.proto.Onnx.TensorProto;
import dev.kiln.onnx.proto.Onnx.TensorShapeProto;
import dev.kiln.onnx.proto.Onnx.ValueInfoProto;
import dev.kiln.ops.ActivationOp;
import dev.kiln.ops.AddOp;
import dev.kiln.ops.BatchNormOp;
import dev.kiln.ops.BroadcastOp;
import dev.kiln.ops.ClipOp;
import dev.kiln.ops.ConcatOp;
import dev.kiln.ops.ConvOp;
import dev.kiln.ops.DeconvOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.DropoutOp;
import dev.kiln.ops.EmbeddingOp;
import dev.kiln.ops.FlattenOp;
import dev.kiln.ops.GlobalPoolOp;
import dev.kiln.ops.InstanceNormOp;
import dev.kiln.ops.LayerNormOp;
import dev.kiln.ops.LayerOp;
import dev.kiln.ops.LogSoftmaxOp;
import dev.kiln.ops.LrnOp;
import dev.kiln.ops.MatMulOp;
import dev.kiln.ops.MathOp;
import dev.kiln.ops.Op;
import dev.kiln.ops.PReluOp;
import dev.kiln.ops.PadOp;
import dev.kiln.ops.PoolOp;
import dev.kiln.ops.RecurrentOp;
import dev.kiln.ops.ReduceOp;
import dev.kiln.ops.ReshapeOp;
import dev.kiln.ops.RnnLayout;
import dev.kiln.ops.ScalarOp;
import dev.kiln.ops.SliceOp;
import dev.kiln.ops.SoftmaxOp;
import dev.kiln.ops.TileOp;
import dev.kiln.ops.TransposeOp;
import dev.kiln.ops.UpsampleOp;
import dev.kiln.ops.ValueOp;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ParamInfo;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Makes an ONNX model into Kiln's operator units ({@link OnnxGraph}), node by node in the file's
 * order. Every node becomes the unit of the built-in layer it is, checked by the unit's own rules
 * and shaped by its own shape function, so that an imported node is costed, emitted and trained as
 * the layer is; what only shapes and constants decide (the {@code Shape → Gather → Concat →
 * Reshape} an exporter writes for a flatten, a {@code Constant}, axes given as inputs) is folded
 * here and never reaches the graph. Initializers a layer reads as its weight become that layer's
 * parameters under their ONNX names; those read as tensors become {@link ValueOp} nodes, trained as
 * well; constants the file computes become frozen ones.
 *
 * <p>Each mistake is a {@link RuleError} of the message catalogue: every operator Kiln does not
 * import at once ({@code OnnxUnknownOps}), an operator set outside 6 to 21, an attribute or input a
 * unit cannot honour ({@code OnnxNode}), a size other than the batch that is not fixed ({@code
 * OnnxSymbolic}), or the rule of the unit a node becomes.
 */
public final class OnnxImport {
  /** The oldest and newest ONNX operator sets Kiln imports. */
  public static final int OLDEST = 6;

  /** The newest ONNX operator set Kiln imports. */
  public static final int NEWEST = 21;

  /** A size of a shape value ({@code Shape}'s output) that is the batch, known only when bound. */
  static final long BATCH_SIZE = Long.MIN_VALUE;

  /** Every ONNX operator Kiln imports, in name order. */
  public static final Set<String> OPERATORS =
      new TreeSet<>(
          List.of(
              "Abs",
              "Add",
              "AveragePool",
              "BatchNormalization",
              "Cast",
              "Clip",
              "Concat",
              "Constant",
              "ConstantOfShape",
              "Conv",
              "ConvTranspose",
              "Div",
              "DepthToSpace",
              "Dropout",
              "Elu",
              "Erf",
              "Exp",
              "Expand",
              "Flatten",
              "Gather",
              "Gelu",
              "Gemm",
              "GlobalAveragePool",
              "GlobalMaxPool",
              "GRU",
              "HardSigmoid",
              "Identity",
              "InstanceNormalization",
              "LayerNormalization",
              "LeakyRelu",
              "Log",
              "LogSoftmax",
              "LRN",
              "LSTM",
              "MatMul",
              "Max",
              "MaxPool",
              "Mean",
              "Min",
              "Mul",
              "Neg",
              "Pad",
              "Pow",
              "PRelu",
              "ReduceMax",
              "ReduceMean",
              "ReduceMin",
              "ReduceProd",
              "ReduceSum",
              "Relu",
              "Reshape",
              "Resize",
              "RNN",
              "Selu",
              "Shape",
              "Sigmoid",
              "Slice",
              "Softmax",
              "Softplus",
              "Softsign",
              "Split",
              "Sqrt",
              "Squeeze",
              "Sub",
              "Sum",
              "Tanh",
              "Tile",
              "Transpose",
              "Unsqueeze",
              "Upsample"));

  private final String file;
  private final String where;
  private final int opset;
  private final GraphProto graph;
  private final Map<String, TensorProto> initializers = new LinkedHashMap<>();
  private final Map<String, Value> values = new HashMap<>();
  private final List<OnnxGraph.Node> nodes = new ArrayList<>();
  private final Map<String, OnnxGraph.Param> params = new LinkedHashMap<>();
  private final Set<String> names = new HashSet<>();
  private final Map<String, String> valueNodes = new HashMap<>();
  private final List<OnnxGraph.Input> inputs = new ArrayList<>();

  /** What a value of the file is, as the translation knows it. */
  private sealed interface Value {}

  /**
   * A tensor a node computes or a data input.
   *
   * @param node the Kiln node or file input that holds it
   * @param shape its shape
   */
  private record Tensor(String node, TShape shape) implements Value {}

  /**
   * A constant: an initializer, a {@code Constant}'s value, or one folded from them.
   *
   * @param dims its dimensions
   * @param numbers its values, row-major ({@link #BATCH_SIZE} for a size known only when bound)
   * @param initializer the initializer it is, or null for a computed constant
   */
  private record Const(long[] dims, double[] numbers, String initializer) implements Value {
    int count() {
      return numbers.length;
    }

    long[] longs() {
      long[] out = new long[numbers.length];
      for (int i = 0; i < out.length; i++) {
        out[i] = numbers[i] == BATCH_SIZE ? BATCH_SIZE : (long) numbers[i];
      }
      return out;
    }
  }

  private OnnxImport(String file, String where, ModelProto model) {
    this.file = file;
    this.where = where;
    this.graph = model.getGraph();
    this.opset = OnnxFile.opset(model);
  }

  /**
   * The units of {@code model}, read from {@code file}, named {@code where} in messages (e.g.
   * {@code Net.features()}); {@code shapes} gives the sizes of inputs that the file leaves symbolic
   * beyond the first dimension (may be empty).
   *
   * @throws RuleError for the first mistake (or every unknown operator at once)
   */
  public static OnnxGraph translate(
      ModelProto model, String file, String where, Map<String, TShape> shapes) {
    OnnxImport t = new OnnxImport(file, where, model);
    return t.run(shapes);
  }

  /**
   * The data inputs of a file as it declares them, with its symbolic sizes as free dimensions.
   *
   * @param shapes each data input's shape, by ONNX name, in the file's order: a symbolic or missing
   *     first dimension is {@code BATCH}, a symbolic size past the first the placeholder of its
   *     free dimension
   * @param dims the free dimensions, by name ({@link #dimName}), each with its placeholder, from
   *     {@link TShape#PLACEHOLDER_FIRST} down in the order their {@code dim_param}s first appear
   */
  public record DeclaredInputs(Map<String, TShape> shapes, Map<String, Integer> dims) {
    /** Copies the maps, keeping their order. */
    public DeclaredInputs {
      shapes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(shapes));
      dims = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(dims));
    }
  }

  /**
   * The shapes of {@code model}'s data inputs (those no initializer feeds), in the file's order, as
   * the file declares them: a symbolic or missing first dimension is {@code BATCH}, and each {@code
   * dim_param} past the first is a free dimension named after it ({@link #dimName}); one {@code
   * dim_param} is one dimension wherever it appears.
   *
   * @throws RuleError ({@code OnnxSymbolic}) for a size past the first that is neither fixed nor
   *     named, or named as a first one is (the batch)
   */
  public static DeclaredInputs inputShapes(ModelProto model, String file, String where) {
    OnnxImport t = new OnnxImport(file, where, model);
    Set<String> initialized = new HashSet<>();
    model.getGraph().getInitializerList().forEach(i -> initialized.add(i.getName()));
    Map<String, TShape> out = new LinkedHashMap<>();
    Map<String, Integer> byParam = new LinkedHashMap<>();
    Map<String, Integer> dims = new LinkedHashMap<>();
    for (ValueInfoProto in : model.getGraph().getInputList()) {
      if (!initialized.contains(in.getName())) {
        out.put(in.getName(), t.shapeOf(in, byParam, dims));
      }
    }
    return new DeclaredInputs(out, dims);
  }

  /**
   * The Java name of the free dimension that {@code dim_param} {@code param} is: upper case, each
   * character that cannot be in an identifier an underscore, an underscore first where the first
   * cannot start one ({@code height} is {@code HEIGHT}, {@code image-size} {@code IMAGE_SIZE},
   * {@code 2d} {@code _2D}); a name already taken, or {@code BATCH} or {@code STEPS}, gets {@code
   * _2}, {@code _3}, ... ({@code h} beside {@code H} is {@code H_2}).
   */
  public static String dimName(String param, Set<String> taken) {
    String upper = param.toUpperCase(java.util.Locale.ROOT);
    StringBuilder b = new StringBuilder();
    for (int k = 0; k < upper.length(); k++) {
      char c = upper.charAt(k);
      b.append(Character.isJavaIdentifierPart(c) && c != '$' ? c : '_');
    }
    if (b.isEmpty() || !Character.isJavaIdentifierStart(b.charAt(0))) {
      b.insert(0, '_');
    }
    String base = b.toString();
    String name = base;
    for (int k = 2;
        taken.contains(name)
            || name.equals("BATCH")
            || name.equals("STEPS")
            || javax.lang.model.SourceVersion.isKeyword(name);
        k++) {
      name = base + "_" + k;
    }
    return name;
  }

  private OnnxGraph run(Map<String, TShape> shapes) {
    if (opset < OLDEST || opset > NEWEST) {
      throw new RuleError(Message.ONNX_OPSET, "onnx", where, file, opset, OLDEST, NEWEST);
    }
    List<String> unknown = new ArrayList<>();
    for (NodeProto n : graph.getNodeList()) {
      boolean onnxDomain = n.getDomain().isEmpty() || n.getDomain().equals("ai.onnx");
      if (!onnxDomain || !OPERATORS.contains(n.getOpType())) {
        String op = onnxDomain ? n.getOpType() : n.getDomain() + "." + n.getOpType();
        unknown.add(op + " (node " + nodeName(n) + ")");
      }
    }
    if (!unknown.isEmpty()) {
      throw new RuleError(
          Message.ONNX_UNKNOWN_OPS,
          "onnx",
          where,
          file,
          String.join(", ", unknown) + " in operator set " + opset,
          String.join(", ", OPERATORS));
    }
    for (TensorProto t : graph.getInitializerList()) {
      initializers.put(t.getName(), t);
      values.put(t.getName(), constOf(t, t.getName()));
    }
    for (ValueInfoProto in : graph.getInputList()) {
      if (initializers.containsKey(in.getName())) {
        continue;
      }
      TShape shape =
          shapes.containsKey(in.getName()) ? shapes.get(in.getName()) : shapeOf(in, null, null);
      int elem = in.getType().getTensorType().getElemType();
      boolean integer =
          elem == TensorProto.DataType.INT64_VALUE || elem == TensorProto.DataType.INT32_VALUE;
      inputs.add(new OnnxGraph.Input(in.getName(), shape, integer));
      names.add(in.getName());
      values.put(in.getName(), new Tensor(in.getName(), shape));
    }
    for (NodeProto n : graph.getNodeList()) {
      translate(n);
    }
    List<OnnxGraph.Output> outputs = new ArrayList<>();
    for (ValueInfoProto out : graph.getOutputList()) {
      Value v = values.get(out.getName());
      if (!(v instanceof Tensor t) || !valueNodes.containsKey(out.getName())) {
        throw new RuleError(
            Message.ONNX_NODE,
            "onnx",
            where,
            out.getName(),
            file,
            "output",
            opset,
            "the output is "
                + (v instanceof Const ? "a constant" : v == null ? "never computed" : "an input")
                + ", not computed by a layer");
      }
      outputs.add(new OnnxGraph.Output(out.getName(), t.node()));
    }
    return new OnnxGraph(file, opset, inputs, nodes, outputs, params, valueNodes);
  }

  // ---------------------------------------------------------------------------------------------
  // Shapes of inputs and values.

  /**
   * An input's declared shape: a symbolic or missing first dimension is {@code BATCH}; with {@code
   * names} (else such a size is refused), a {@code dim_param} past the first is the placeholder of
   * a free dimension, that {@code byParam} keeps by {@code dim_param} and {@code names} by name.
   */
  private TShape shapeOf(
      ValueInfoProto in, Map<String, Integer> byParam, Map<String, Integer> names) {
    if (!in.getType().hasTensorType() || !in.getType().getTensorType().hasShape()) {
      throw symbolic(in.getName(), "unknown");
    }
    List<TensorShapeProto.Dimension> dims = in.getType().getTensorType().getShape().getDimList();
    int[] out = new int[dims.size()];
    for (int i = 0; i < out.length; i++) {
      TensorShapeProto.Dimension d = dims.get(i);
      if (d.hasDimValue() && d.getDimValue() > 0 && d.getDimValue() <= Integer.MAX_VALUE) {
        out[i] = (int) d.getDimValue();
      } else if (i == 0 || i == 1 && out[0] > 0 && timeMajorSequence(in.getName())) {
        out[i] = TShape.BATCH;
        if (names != null && d.hasDimParam()) {
          byParam.putIfAbsent(d.getDimParam(), TShape.BATCH);
        }
      } else if (names != null && d.hasDimParam() && !d.getDimParam().isEmpty()) {
        out[i] = placeholder(d.getDimParam(), byParam, names);
        if (out[i] == TShape.BATCH) {
          throw symbolic(in.getName(), describe(dims));
        }
      } else {
        throw symbolic(in.getName(), describe(dims));
      }
    }
    return TShape.of(out);
  }

  /**
   * The placeholder of the free dimension {@code dim_param} {@code param} is, new ones from {@link
   * TShape#PLACEHOLDER_FIRST} down; {@code BATCH} when it names a batch.
   */
  private int placeholder(String param, Map<String, Integer> byParam, Map<String, Integer> names) {
    Integer known = byParam.get(param);
    if (known != null) {
      return known;
    }
    int p = TShape.PLACEHOLDER_FIRST - names.size();
    if (p < TShape.PLACEHOLDER_LAST) {
      throw symbolic(param, "more named sizes than Kiln's placeholders");
    }
    names.put(dimName(param, names.keySet()), p);
    byParam.put(param, p);
    return p;
  }

  /**
   * Whether input {@code name} is the time-major sequence ({@code layout = 0}) of a recurrent node,
   * whose batch is its second axis.
   */
  private boolean timeMajorSequence(String name) {
    for (NodeProto n : graph.getNodeList()) {
      boolean rnn = Set.of("LSTM", "GRU", "RNN").contains(n.getOpType());
      if (rnn && n.getInputCount() > 0 && n.getInput(0).equals(name)) {
        return n.getAttributeList().stream()
            .noneMatch(a -> a.getName().equals("layout") && a.getI() == 1);
      }
    }
    return false;
  }

  private RuleError symbolic(String input, String shape) {
    return new RuleError(Message.ONNX_SYMBOLIC, "onnx", where, input, file, shape, input);
  }

  private static String describe(List<TensorShapeProto.Dimension> dims) {
    return dims.stream()
        .map(
            d ->
                d.hasDimValue()
                    ? Long.toString(d.getDimValue())
                    : d.hasDimParam() ? d.getDimParam() : "?")
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private Const constOf(TensorProto t, String initializer) {
    long[] dims = Tensors.dims(t);
    long[] l = null;
    double[] numbers;
    try {
      if (t.getDataType() == TensorProto.DataType.INT64_VALUE
          || t.getDataType() == TensorProto.DataType.INT32_VALUE) {
        l = Tensors.longs(t, null);
        numbers = Arrays.stream(l).asDoubleStream().toArray();
      } else {
        float[] f = Tensors.floats(t, null);
        numbers = new double[f.length];
        for (int i = 0; i < f.length; i++) {
          numbers[i] = f[i];
        }
      }
    } catch (OnnxFormatException e) {
      if (t.getDataLocation() == TensorProto.DataLocation.EXTERNAL) {
        // Values stored beside the file are read when the model loads them; only their shape
        // is needed to check the graph.
        numbers = null;
      } else {
        throw new RuleError(Message.ONNX_NOT_MODEL, "onnx", where, file + ": " + e.getMessage());
      }
    }
    return new Const(dims, numbers, initializer);
  }

  // ---------------------------------------------------------------------------------------------
  // Nodes.

  private NodeProto node;
  private String base;

  private void translate(NodeProto n) {
    node = n;
    base = baseName(n);
    switch (n.getOpType()) {
      case "Identity", "Cast" -> cast();
      case "Constant" -> define(0, constant());
      case "ConstantOfShape" -> constantOfShape();
      case "Shape" -> shape();
      case "Dropout" -> dropout();
      case "Relu" -> activation(Act.RELU);
      case "Sigmoid" -> activation(Act.SIGMOID);
      case "Tanh" -> activation(Act.TANH);
      case "Softplus" -> activation(Act.SOFTRELU);
      case "Softsign" -> activation(Act.SOFTSIGN);
      case "LeakyRelu" -> emitTo(0, new ActivationOp(Act.LEAKY_RELU, f("alpha", 0.01)), tensor(0));
      case "Elu" -> emitTo(0, new ActivationOp(Act.ELU, f("alpha", 1.0)), tensor(0));
      case "Selu" -> selu();
      case "Gelu" -> gelu();
      case "PRelu" -> prelu();
      case "Conv" -> conv();
      case "ConvTranspose" -> convTranspose();
      case "Gemm" -> gemm();
      case "MatMul" -> matMul();
      case "Add" -> binary(BroadcastOp.add());
      case "Sub" -> binary(BroadcastOp.subtract());
      case "Mul" -> binary(BroadcastOp.multiply());
      case "Div" -> binary(BroadcastOp.divide());
      case "Max" -> binary(BroadcastOp.maximum());
      case "Min" -> binary(BroadcastOp.minimum());
      case "BatchNormalization" -> batchNorm();
      case "MaxPool" -> pool(true);
      case "AveragePool" -> pool(false);
      case "GlobalAveragePool" -> emitTo(0, GlobalPoolOp.avg(), tensor(0));
      case "GlobalMaxPool" -> emitTo(0, GlobalPoolOp.max(), tensor(0));
      case "Flatten" -> flatten();
      case "Reshape" -> reshape();
      case "Transpose" -> transpose();
      case "Concat" -> concat();
      case "Softmax" -> softmax(false);
      case "LogSoftmax" -> softmax(true);
      case "Sqrt" -> unary(MathOp.sqrt(), Math::sqrt);
      case "Exp" -> unary(MathOp.exp(), Math::exp);
      case "Log" -> unary(MathOp.log(), Math::log);
      case "Neg" -> unary(MathOp.negate(), x -> -x);
      case "Abs" -> unary(MathOp.abs(), Math::abs);
      case "Erf" -> unary(MathOp.erf(), null);
      case "Pow" -> pow();
      case "HardSigmoid" ->
          emitTo(0, MathOp.hardSigmoid(f("alpha", 0.2), f("beta", 0.5)), tensor(0));
      case "Sum" -> variadic(false);
      case "Mean" -> variadic(true);
      case "Clip" -> clip();
      case "Squeeze" -> squeeze(false);
      case "Unsqueeze" -> squeeze(true);
      case "Gather" -> gather();
      case "Slice" -> slice();
      case "Split" -> split();
      case "DepthToSpace" -> depthToSpace();
      case "Tile" -> tile();
      case "Expand" -> expand();
      case "Pad" -> pad();
      case "InstanceNormalization" -> instanceNorm();
      case "LSTM", "GRU", "RNN" -> recurrent();
      case "ReduceMean" -> reduce(ReduceOp.Kind.MEAN, 18);
      case "ReduceSum" -> reduce(ReduceOp.Kind.SUM, 13);
      case "ReduceMax" -> reduce(ReduceOp.Kind.MAX, 18);
      case "ReduceMin" -> reduce(ReduceOp.Kind.MIN, 18);
      case "ReduceProd" -> reduce(ReduceOp.Kind.PROD, 18);
      case "LRN" ->
          emitTo(
              0,
              new LrnOp(i("size", 0), f("alpha", 1e-4), f("beta", 0.75), f("bias", 1.0)),
              tensor(0));
      case "Resize", "Upsample" -> resize();
      case "LayerNormalization" -> layerNorm();
      default -> unsupported("no translation");
    }
  }

  private String baseName(NodeProto n) {
    String name =
        !n.getName().isEmpty() ? n.getName() : n.getOutputCount() > 0 ? n.getOutput(0) : "node";
    return name;
  }

  private static String nodeName(NodeProto n) {
    return !n.getName().isEmpty() ? n.getName() : n.getOutputCount() > 0 ? n.getOutput(0) : "?";
  }

  /** A name for a new Kiln node, unique in the graph: {@code base}, or {@code base_<suffix>}. */
  private String fresh(String suffix) {
    String name = suffix.isEmpty() ? base : base + "_" + suffix;
    String candidate = name;
    for (int i = 2; !names.add(candidate); i++) {
      candidate = name + "_" + i;
    }
    return candidate;
  }

  private RuleError fail(String why) {
    return new RuleError(
        Message.ONNX_NODE, "onnx", where, nodeName(node), file, node.getOpType(), opset, why);
  }

  private void unsupported(String why) {
    throw fail(why);
  }

  /** The node as a reader would write it: {@code Conv(kernel_shape=[5, 5], pads=[2, 2, 2, 2])}. */
  private String text() {
    if (node.getAttributeCount() == 0) {
      return node.getOpType();
    }
    return node.getOpType()
        + node.getAttributeList().stream()
            .map(a -> a.getName() + "=" + attributeText(a))
            .collect(Collectors.joining(", ", "(", ")"));
  }

  private static String attributeText(AttributeProto a) {
    return switch (a.getType()) {
      case FLOAT -> Float.toString(a.getF());
      case INT -> Long.toString(a.getI());
      case STRING -> a.getS().toString(StandardCharsets.UTF_8);
      case FLOATS -> a.getFloatsList().toString();
      case INTS -> a.getIntsList().toString();
      case TENSOR -> "tensor" + a.getT().getDimsList();
      default -> a.getType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  // --- attributes

  private AttributeProto attr(String name) {
    for (AttributeProto a : node.getAttributeList()) {
      if (a.getName().equals(name)) {
        return a;
      }
    }
    return null;
  }

  private double f(String name, double fallback) {
    AttributeProto a = attr(name);
    return a == null
        ? fallback
        : a.getType() == AttributeProto.AttributeType.INT ? a.getI() : a.getF();
  }

  private int i(String name, int fallback) {
    AttributeProto a = attr(name);
    return a == null ? fallback : Math.toIntExact(a.getI());
  }

  private String s(String name, String fallback) {
    AttributeProto a = attr(name);
    return a == null ? fallback : a.getS().toString(StandardCharsets.UTF_8);
  }

  private List<Integer> ints(String name) {
    AttributeProto a = attr(name);
    return a == null
        ? null
        : a.getIntsList().stream().map(Math::toIntExact).collect(Collectors.toList());
  }

  // --- inputs

  private boolean has(int i) {
    return node.getInputCount() > i && !node.getInput(i).isEmpty();
  }

  private Value value(int i) {
    if (!has(i)) {
      throw fail("input " + i + " is missing");
    }
    Value v = values.get(node.getInput(i));
    if (v == null) {
      throw fail("input " + node.getInput(i) + " is read before any node computes it");
    }
    return v;
  }

  /** Input {@code i} as a tensor: a constant becomes a {@link ValueOp} node. */
  private Tensor tensor(int i) {
    Value v = value(i);
    if (v instanceof Tensor t) {
      return t;
    }
    Const c = (Const) v;
    return valueNode(node.getInput(i), c, toInts(c.dims()));
  }

  /** Input {@code i} as a constant, or a failure naming {@code what} it is. */
  private Const constant(int i, String what) {
    Value v = value(i);
    if (v instanceof Const c && c.numbers() != null) {
      return c;
    }
    throw fail(
        "its "
            + what
            + " ("
            + node.getInput(i)
            + ") is computed from the model's inputs; Kiln needs it known when the model compiles");
  }

  /** Input {@code i} as an initializer the node reads as a weight. */
  private Const initializer(int i, String what) {
    Value v = value(i);
    if (v instanceof Const c && c.initializer() != null) {
      return c;
    }
    throw fail(
        "its "
            + what
            + " ("
            + node.getInput(i)
            + ") is "
            + (v instanceof Const ? "a computed constant" : "computed by the graph")
            + "; Kiln imports a weight that is an initializer");
  }

  private void define(int output, Value v) {
    if (node.getOutputCount() > output && !node.getOutput(output).isEmpty()) {
      values.put(node.getOutput(output), v);
    }
  }

  /** No output past the first may be read (a dropout's mask, a pool's indices). */
  private void onlyFirstOutput() {
    for (int k = 1; k < node.getOutputCount(); k++) {
      if (reads(k)) {
        throw fail(
            "its output " + k + " (" + node.getOutput(k) + ") is read; Kiln computes the first");
      }
    }
  }

  /** Whether another node or the graph's outputs read the node's output {@code k}. */
  private boolean reads(int k) {
    if (node.getOutputCount() <= k || node.getOutput(k).isEmpty()) {
      return false;
    }
    String name = node.getOutput(k);
    return graph.getNodeList().stream().anyMatch(n -> n.getInputList().contains(name))
        || graph.getOutputList().stream().anyMatch(o -> o.getName().equals(name));
  }

  // --- emitting

  /**
   * Emits {@code op} over {@code in} as a Kiln node reading {@code roles} (role → initializer),
   * checked and shaped by the unit's rules, and returns its output.
   */
  private Tensor emit(
      String name, Op op, List<Tensor> in, Map<String, Const> roles, boolean constant) {
    String text = text();
    String site = where + " " + name;
    for (Tensor t : in) {
      refuseFree(op, site, t);
    }
    op.checkAttributes(new AttributeSite(name, site, text));
    List<Source> sources = new ArrayList<>();
    for (Tensor t : in) {
      sources.add(new Source(t.shape(), t.node(), "onnx"));
    }
    Map<String, String> roleNames = new LinkedHashMap<>();
    for (Map.Entry<String, Const> r : roles.entrySet()) {
      roleNames.put(
          r.getKey(),
          r.getValue().initializer() != null
              ? r.getValue().initializer()
              : name + "_" + r.getKey());
    }
    Inferred inferred =
        op.infer(
            new ShapeSite(
                    site,
                    name,
                    text,
                    in.stream().map(Tensor::node).toList(),
                    role -> roleNames.getOrDefault(role, name + "_" + role),
                    sources)
                // What the rules need of free sizes is collected when the processor checks the
                // model's nodes, which are these units again.
                .withNeeds(r -> {}));
    for (ParamInfo p : concat(inferred.params(), inferred.aux())) {
      String role = roleOf(name, p.name(), roleNames);
      Const c = role == null ? null : roles.get(role);
      if (c == null) {
        continue;
      }
      if (recurrent != null && role.equals(ParamRole.PARAMETERS.role())) {
        params.put(
            p.name(),
            new OnnxGraph.Param(
                p.name(),
                List.of(Math.toIntExact(p.shape().perExample())),
                false,
                null,
                recurrent));
        continue;
      }
      boolean transposed = transposedRoles.contains(role);
      long[] fileDims = c.dims();
      long want = p.shape().perExample();
      long have = 1;
      for (long d : fileDims) {
        have *= d;
      }
      if (have != want) {
        throw fail(
            "its "
                + role
                + " "
                + p.name()
                + " has shape "
                + Arrays.toString(fileDims)
                + ", but the layer needs "
                + p.shape());
      }
      params.put(
          p.name(),
          new OnnxGraph.Param(
              p.name(),
              toList(fileDims),
              transposed,
              c.initializer() == null ? toFloats(c.numbers()) : null));
    }
    transposedRoles.clear();
    recurrent = null;
    nodes.add(
        new OnnxGraph.Node(
            name,
            node.getName(),
            node.getOpType(),
            op,
            in.stream().map(Tensor::node).toList(),
            roleNames,
            constant,
            inferred.shape(),
            text));
    return new Tensor(name, inferred.shape());
  }

  private final Set<String> transposedRoles = new HashSet<>();

  /**
   * Refuses {@code t} at {@code site} when it has a free size and {@code op}'s rules do not take
   * free dimensions ({@code FreeDimUnsupported}, as the processor refuses such a node).
   */
  private void refuseFree(Op op, String site, Tensor t) {
    if (!op.takesFreeDims() && t.shape().hasFree()) {
      throw new RuleError(
          Message.FREE_DIM_UNSUPPORTED,
          "onnx",
          site,
          "@" + op.annotation() + " (ONNX " + node.getOpType() + ")",
          t.shape(),
          t.node());
    }
  }

  /**
   * Size {@code k} of {@code x}, input {@code i} of the node, which the translation computes with;
   * refused when it is free ({@code OnnxFreeDim}), never folded as a number.
   */
  private int size(int i, Tensor x, int k) {
    return size(i, x.shape(), k);
  }

  private int size(int i, TShape shape, int k) {
    int d = shape.dim(k);
    if (TShape.isFree(d)) {
      throw new RuleError(
          Message.ONNX_FREE_DIM,
          "onnx",
          where,
          nodeName(node),
          file,
          node.getOpType(),
          opset,
          shape.size(k),
          node.getInput(i),
          shape);
    }
    return d;
  }

  /** The fused vector the next emitted recurrent node reads, made of the file's W, R and B. */
  private OnnxRecurrent recurrent;

  private static String roleOf(String node, String param, Map<String, String> roleNames) {
    for (Map.Entry<String, String> e : roleNames.entrySet()) {
      if (e.getValue().equals(param)) {
        return e.getKey();
      }
    }
    return null;
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /** Emits {@code op} over {@code in} as the node's own output {@code output}. */
  private void emitTo(int output, Op op, Tensor... in) {
    emitTo(output, op, List.of(in), Map.of());
  }

  private void emitTo(int output, Op op, List<Tensor> in, Map<String, Const> roles) {
    Tensor t = emit(fresh(""), op, in, roles, false);
    define(output, t);
    valueNodes.put(node.getOutput(output), t.node());
  }

  /** A {@link ValueOp} node holding constant or initializer {@code c}, seen in {@code view}. */
  private Tensor valueNode(String value, Const c, int[] view) {
    String name;
    if (c.initializer() != null) {
      String candidate = c.initializer() + (Arrays.equals(view, toInts(c.dims())) ? "" : "_view");
      name = candidate;
      for (int k = 2; !names.add(name); k++) {
        name = candidate + "_" + k;
      }
    } else {
      name = fresh("value");
    }
    int[] dims = toInts(c.dims());
    if (dims.length == 0) {
      dims = new int[] {1};
    }
    if (c.numbers() == null && c.initializer() == null) {
      throw fail("constant " + value + " has no values Kiln can read");
    }
    ValueOp op = ValueOp.of(dims).as(view.length == 0 ? new int[] {1} : view);
    Map<String, Const> roles = Map.of(ParamRole.VALUE.role(), c);
    return emit(name, op, List.of(), roles, c.initializer() == null);
  }

  // ---------------------------------------------------------------------------------------------
  // Translations, by operator.

  private void cast() {
    Value v = value(0);
    if (node.getOpType().equals("Cast")) {
      int to = i("to", TensorProto.DataType.FLOAT_VALUE);
      boolean floating =
          to == TensorProto.DataType.FLOAT_VALUE
              || to == TensorProto.DataType.DOUBLE_VALUE
              || to == TensorProto.DataType.FLOAT16_VALUE
              || to == TensorProto.DataType.BFLOAT16_VALUE;
      if (v instanceof Tensor && !floating) {
        throw fail("Kiln computes in float32 and casts a tensor between float types only");
      }
      if (v instanceof Const c && !floating && c.numbers() != null) {
        double[] n = c.numbers().clone();
        for (int k = 0; k < n.length; k++) {
          n[k] = n[k] == BATCH_SIZE ? BATCH_SIZE : (double) (long) n[k];
        }
        define(0, new Const(c.dims(), n, null));
        return;
      }
    }
    define(0, v);
    if (v instanceof Tensor t && nodes.stream().anyMatch(n -> n.name().equals(t.node()))) {
      valueNodes.put(node.getOutput(0), t.node());
    }
  }

  private Const constant() {
    AttributeProto a = attr("value");
    if (a != null) {
      return constOf(a.getT(), null);
    }
    for (AttributeProto x : node.getAttributeList()) {
      switch (x.getName()) {
        case "value_float" -> {
          return new Const(new long[0], new double[] {x.getF()}, null);
        }
        case "value_int" -> {
          return new Const(new long[0], new double[] {x.getI()}, null);
        }
        case "value_floats" -> {
          return new Const(
              new long[] {x.getFloatsCount()},
              x.getFloatsList().stream().mapToDouble(Float::doubleValue).toArray(),
              null);
        }
        case "value_ints" -> {
          return new Const(
              new long[] {x.getIntsCount()},
              x.getIntsList().stream().mapToDouble(Long::doubleValue).toArray(),
              null);
        }
        default -> {
          // sparse_value, value_string(s): not numbers Kiln folds
        }
      }
    }
    throw fail("its value is not a number Kiln reads");
  }

  private void constantOfShape() {
    long[] shape = constant(0, "shape").longs();
    double fill = 0;
    AttributeProto a = attr("value");
    if (a != null) {
      Const c = constOf(a.getT(), null);
      fill = c.numbers()[0];
    }
    long n = 1;
    for (long d : shape) {
      if (d < 0) {
        throw fail("its shape " + Arrays.toString(shape) + " is not known when the model compiles");
      }
      n *= d;
    }
    double[] numbers = new double[Math.toIntExact(n)];
    Arrays.fill(numbers, fill);
    define(0, new Const(shape, numbers, null));
  }

  private void shape() {
    Value v = value(0);
    int rank = v instanceof Tensor t ? t.shape().rank() : ((Const) v).dims().length;
    int start = i("start", 0);
    int end = i("end", rank);
    start = start < 0 ? Math.max(0, start + rank) : Math.min(start, rank);
    end = end < 0 ? Math.max(0, end + rank) : Math.min(end, rank);
    long[] dims;
    if (v instanceof Tensor t) {
      dims = new long[rank];
      for (int k = 0; k < dims.length; k++) {
        int d = k >= start && k < end ? size(0, t, k) : t.shape().dim(k);
        dims[k] = d < 0 ? BATCH_SIZE : d;
      }
    } else {
      dims = ((Const) v).dims();
    }
    long[] part = Arrays.copyOfRange(dims, start, Math.max(start, end));
    double[] numbers = new double[part.length];
    for (int k = 0; k < part.length; k++) {
      numbers[k] = part[k] == BATCH_SIZE ? BATCH_SIZE : part[k];
    }
    define(0, new Const(new long[] {part.length}, numbers, null));
  }

  private void dropout() {
    onlyFirstOutput();
    double ratio = opset < 12 ? f("ratio", 0.5) : has(1) ? constant(1, "ratio").numbers()[0] : 0.5;
    emitTo(0, DropoutOp.rate(ratio), tensor(0));
  }

  private void activation(Act act) {
    emitTo(0, new ActivationOp(act, Double.NaN), tensor(0));
  }

  private void selu() {
    double alpha = f("alpha", 1.67326319217681884765625);
    double gamma = f("gamma", 1.05070102214813232421875);
    if (Math.abs(alpha - 1.6732632) > 1e-6 || Math.abs(gamma - 1.0507010) > 1e-6) {
      throw fail("Kiln's SELU has the standard alpha and gamma, got " + alpha + " and " + gamma);
    }
    activation(Act.SELU);
  }

  private void gelu() {
    String approximate = s("approximate", "none");
    if (!approximate.equals("none")) {
      throw fail("Kiln's GELU is the exact one (approximate = none), got " + approximate);
    }
    activation(Act.GELU);
  }

  private void prelu() {
    Tensor x = tensor(0);
    Const slope = initializer(1, "slope");
    int rank = x.shape().rank();
    int c = rank >= 2 ? size(0, x, 1) : -1;
    long[] d = slope.dims();
    // Per channel as ONNX broadcasts it: [C] over rank 2, [C, 1, ...] or [1, C, 1, ...] beyond.
    boolean perChannel = c > 0 && slope.count() == c;
    if (perChannel && rank > 2) {
      perChannel = d.length == rank - 1 && d[0] == c || d.length == rank && d[0] == 1 && d[1] == c;
    } else if (perChannel) {
      perChannel = d.length == 1 || d.length == 2 && d[0] == 1;
    }
    if (!perChannel) {
      throw fail(
          "Kiln's PReLU has one slope per channel (axis 1); the slope of shape "
              + Arrays.toString(d)
              + " broadcasts otherwise over "
              + x.shape());
    }
    emitTo(0, PReluOp.perChannel(), List.of(x), Map.of(ParamRole.ALPHA.role(), slope));
  }

  private void conv() {
    Tensor x = tensor(0);
    Const w = initializer(1, "weight");
    int spatial = x.shape().rank() - 2;
    if (spatial < 1 || spatial > 3) {
      throw fail("Kiln imports 1-D, 2-D and 3-D convolutions, the input is " + x.shape());
    }
    List<Integer> kernel = ints("kernel_shape");
    if (kernel == null) {
      kernel = new ArrayList<>();
      for (int k = 2; k < w.dims().length; k++) {
        kernel.add((int) w.dims()[k]);
      }
    }
    List<Integer> strides = or(ints("strides"), spatial, 1);
    List<Integer> dilations = or(ints("dilations"), spatial, 1);
    List<Integer> pads = pads(x.shape(), kernel, strides, dilations, spatial);
    int group = i("group", 1);
    boolean bias = has(2);
    ConvOp op =
        ConvOp.filters((int) w.dims()[0])
            .kernel(toInts(kernel))
            .stride(toInts(strides))
            .pad(toInts(pads))
            .dilation(toInts(dilations))
            .groups(group);
    Map<String, Const> roles = new LinkedHashMap<>();
    roles.put(ParamRole.WEIGHT.role(), w);
    if (bias) {
      roles.put(ParamRole.BIAS.role(), initializer(2, "bias"));
    } else {
      op = op.withoutBias();
    }
    emitTo(0, op, List.of(x), roles);
  }

  /**
   * The symmetric padding per spatial axis: written ({@code pads}, begin equal to end), none
   * ({@code VALID}), or the {@code SAME} padding the input's static size gives.
   */
  private List<Integer> pads(
      TShape in,
      List<Integer> kernel,
      List<Integer> strides,
      List<Integer> dilations,
      int spatial) {
    String auto = s("auto_pad", "NOTSET");
    List<Integer> out = new ArrayList<>();
    switch (auto) {
      case "NOTSET" -> {
        List<Integer> pads = or(ints("pads"), 2 * spatial, 0);
        for (int a = 0; a < spatial; a++) {
          if (!pads.get(a).equals(pads.get(a + spatial))) {
            throw fail(
                "its pads "
                    + pads
                    + " pad the start and the end of an axis differently; Kiln pads both alike");
          }
          out.add(pads.get(a));
        }
      }
      case "VALID" -> {
        for (int a = 0; a < spatial; a++) {
          out.add(0);
        }
      }
      case "SAME_UPPER", "SAME_LOWER" -> {
        for (int a = 0; a < spatial; a++) {
          int size = size(0, in, 2 + a);
          if (size < 0) {
            throw fail("auto_pad " + auto + " needs the input's size, which is not fixed");
          }
          int s = strides.get(a);
          int span = dilations.get(a) * (kernel.get(a) - 1) + 1;
          int total = Math.max(0, ((size + s - 1) / s - 1) * s + span - size);
          if (total % 2 != 0) {
            throw fail(
                "auto_pad "
                    + auto
                    + " pads axis "
                    + (2 + a)
                    + " by "
                    + total
                    + " in all, not alike at both ends; Kiln pads both alike");
          }
          out.add(total / 2);
        }
      }
      default -> throw fail("auto_pad " + auto + " is not one ONNX defines");
    }
    return out;
  }

  private void convTranspose() {
    Tensor x = tensor(0);
    Const w = initializer(1, "weight");
    if (x.shape().rank() != 4) {
      throw fail("Kiln imports 2-D transposed convolutions, the input is " + x.shape());
    }
    if (attr("output_shape") != null) {
      throw fail("Kiln imports output_padding, not output_shape");
    }
    List<Integer> kernel = ints("kernel_shape");
    if (kernel == null) {
      kernel = List.of((int) w.dims()[2], (int) w.dims()[3]);
    }
    List<Integer> strides = or(ints("strides"), 2, 1);
    List<Integer> dilations = or(ints("dilations"), 2, 1);
    String auto = s("auto_pad", "NOTSET");
    if (!auto.equals("NOTSET") && !auto.equals("VALID")) {
      throw fail("Kiln imports a transposed convolution's pads, not auto_pad " + auto);
    }
    List<Integer> pads =
        auto.equals("VALID") ? List.of(0, 0) : pads(x.shape(), kernel, strides, dilations, 2);
    List<Integer> outputPad = or(ints("output_padding"), 2, 0);
    int group = i("group", 1);
    DeconvOp op =
        DeconvOp.filters((int) w.dims()[1] * group)
            .kernel(toInts(kernel))
            .stride(toInts(strides))
            .pad(toInts(pads))
            .outputPad(toInts(outputPad))
            .dilation(toInts(dilations))
            .groups(group);
    Map<String, Const> roles = new LinkedHashMap<>();
    roles.put(ParamRole.WEIGHT.role(), w);
    if (has(2)) {
      roles.put(ParamRole.BIAS.role(), initializer(2, "bias"));
    } else {
      op = op.withoutBias();
    }
    emitTo(0, op, List.of(x), roles);
  }

  /**
   * {@code Y = alpha · A' · B' + beta · C}: a dense layer over an initializer {@code B} (with
   * {@code C} as its bias when both scales are 1), else a matrix product of two tensors; {@code
   * alpha} and {@code beta} scale the product and {@code C} ({@code ScalarOp.times}), and {@code C}
   * broadcasts as NumPy does.
   */
  private void gemm() {
    double alpha = f("alpha", 1);
    double beta = f("beta", 1);
    boolean transB = i("transB", 0) != 0;
    Tensor a = tensor(0);
    if (i("transA", 0) != 0) {
      if (a.shape().hasBatch()) {
        throw fail(
            "transA = 1 over A "
                + a.shape()
                + " would sum over the batch; Kiln transposes an A whose sizes are fixed");
      }
      a = emit(fresh("transposedA"), TransposeOp.axes(1, 0), List.of(a), Map.of(), false);
    }
    Value c = has(2) && beta != 0 ? value(2) : null;
    Value bv = value(1);
    Tensor y;
    if (bv instanceof Const b && b.initializer() != null && b.dims().length == 2) {
      int units = (int) (transB ? b.dims()[0] : b.dims()[1]);
      Map<String, Const> roles = new LinkedHashMap<>();
      roles.put(ParamRole.WEIGHT.role(), b);
      if (!transB) {
        transposedRoles.add(ParamRole.WEIGHT.role());
      }
      DenseOp op = DenseOp.units(units);
      boolean last = c == null && alpha == 1;
      if (c instanceof Const cc
          && cc.count() == units
          && cc.initializer() != null
          && alpha == 1
          && beta == 1) {
        roles.put(ParamRole.BIAS.role(), cc);
        emitTo(0, op, List.of(a), roles);
        return;
      }
      if (last) {
        emitTo(0, op.withoutBias(), List.of(a), roles);
        return;
      }
      y = emit(fresh("product"), op.withoutBias(), List.of(a), roles, false);
    } else {
      Tensor b = tensor(1);
      MatMulOp op = transB ? MatMulOp.matrices().transposeB() : MatMulOp.matrices();
      if (c == null && alpha == 1) {
        emitTo(0, op, a, b);
        return;
      }
      y = emit(fresh("product"), op, List.of(a, b), Map.of(), false);
    }
    if (alpha != 1) {
      if (c == null) {
        emitTo(0, ScalarOp.times(alpha), y);
        return;
      }
      y = emit(fresh("alpha"), ScalarOp.times(alpha), List.of(y), Map.of(), false);
    }
    Tensor bias;
    if (c instanceof Tensor t) {
      bias = rankUp(t, y.shape().rank());
    } else if (beta != 1 && ((Const) c).initializer() == null && ((Const) c).numbers() != null) {
      Const cc = (Const) c;
      double[] scaled = cc.numbers().clone();
      for (int k = 0; k < scaled.length; k++) {
        scaled[k] *= beta;
      }
      bias = broadcastView(2, new Const(cc.dims(), scaled, null), y.shape().rank());
      beta = 1;
    } else {
      bias = broadcastView(2, (Const) c, y.shape().rank());
    }
    if (beta != 1) {
      bias = emit(fresh("beta"), ScalarOp.times(beta), List.of(bias), Map.of(), false);
    }
    emitTo(0, BroadcastOp.add(), List.of(y, bias), Map.of());
  }

  /** A product: a dense layer over an initializer on the right, or a matrix product of two. */
  private void matMul() {
    Tensor a = tensor(0);
    Value bv = value(1);
    if (bv instanceof Const b && b.initializer() != null && b.dims().length == 2) {
      transposedRoles.add(ParamRole.WEIGHT.role());
      DenseOp op = DenseOp.units((int) b.dims()[1]).withoutBias();
      if (a.shape().rank() > 2) {
        op = op.flatten(false);
      }
      emitTo(0, op, List.of(a), Map.of(ParamRole.WEIGHT.role(), b));
      return;
    }
    Tensor b = tensor(1);
    if (a.shape().rank() != b.shape().rank()) {
      throw fail(
          "Kiln multiplies stacks of matrices of equal rank, got "
              + a.shape()
              + " and "
              + b.shape());
    }
    emitTo(0, a.shape().rank() == 2 ? MatMulOp.matrices() : MatMulOp.batched(), a, b);
  }

  /**
   * An element-wise operation of two inputs, broadcasting as NumPy does: a constant becomes a value
   * node seen with the other's rank; two tensors of one shape that are added are Kiln's sum.
   */
  private void binary(BroadcastOp op) {
    Value va = value(0);
    Value vb = value(1);
    if (va instanceof Const a
        && vb instanceof Const b
        && a.numbers() != null
        && b.numbers() != null) {
      define(0, fold(op.kind(), a, b));
      return;
    }
    int rank =
        Math.max(
            va instanceof Tensor t ? t.shape().rank() : ((Const) va).dims().length,
            vb instanceof Tensor t ? t.shape().rank() : ((Const) vb).dims().length);
    Tensor a = va instanceof Tensor t ? rankUp(t, rank) : broadcastView(0, (Const) va, rank);
    Tensor b = vb instanceof Tensor t ? rankUp(t, rank) : broadcastView(1, (Const) vb, rank);
    if (op.kind() == BroadcastOp.Kind.ADD && a.shape().equals(b.shape())) {
      emitTo(0, new AddOp(), a, b);
    } else {
      emitTo(0, op, a, b);
    }
  }

  /** Constant {@code c} (input {@code i}) as a value node of rank {@code rank}, ones in front. */
  private Tensor broadcastView(int i, Const c, int rank) {
    int[] dims = toInts(c.dims());
    int[] view = new int[Math.max(rank, dims.length)];
    Arrays.fill(view, 1);
    System.arraycopy(dims, 0, view, view.length - dims.length, dims.length);
    return valueNode(node.getInput(i), c, view);
  }

  /** A tensor of lower rank, made of rank {@code rank} with ones in front where it is safe. */
  private Tensor rankUp(Tensor t, int rank) {
    if (t.shape().rank() == rank) {
      return t;
    }
    refuseFree(ReshapeOp.of(1), where + " " + base, t);
    if (t.shape().hasBatch()) {
      throw fail(
          "it broadcasts "
              + t.shape()
              + " against rank "
              + rank
              + ": the batch would move; Kiln broadcasts tensors of equal rank");
    }
    int[] target = new int[rank];
    Arrays.fill(target, 1);
    for (int k = 0; k < t.shape().rank(); k++) {
      target[rank - t.shape().rank() + k] = t.shape().dim(k);
    }
    return emit(fresh("rank" + rank), ReshapeOp.of(target), List.of(t), Map.of(), false);
  }

  private Const fold(BroadcastOp.Kind kind, Const a, Const b) {
    int n = Math.max(a.count(), b.count());
    if (a.count() != b.count() && a.count() != 1 && b.count() != 1) {
      throw fail("it folds constants of shapes Kiln does not broadcast");
    }
    double[] out = new double[n];
    for (int k = 0; k < n; k++) {
      double x = a.numbers()[a.count() == 1 ? 0 : k];
      double y = b.numbers()[b.count() == 1 ? 0 : k];
      if (x == BATCH_SIZE || y == BATCH_SIZE) {
        out[k] = BATCH_SIZE;
        continue;
      }
      out[k] =
          switch (kind) {
            case ADD -> x + y;
            case SUBTRACT -> x - y;
            case MULTIPLY -> x * y;
            case DIVIDE ->
                y == 0
                    ? Double.NaN
                    : (Math.rint(x) == x && Math.rint(y) == y
                        ? Math.floorDiv((long) x, (long) y)
                        : x / y);
            case MAXIMUM -> Math.max(x, y);
            case MINIMUM -> Math.min(x, y);
            case POWER -> Math.pow(x, y);
          };
    }
    return new Const(a.count() >= b.count() ? a.dims() : b.dims(), out, null);
  }

  private void batchNorm() {
    onlyFirstOutput();
    if (opset < 7 && i("spatial", 1) != 1) {
      throw fail("spatial = 0 normalises every value alone; Kiln's batch norm is per channel");
    }
    if (i("training_mode", 0) != 0) {
      throw fail("training_mode = 1; Kiln imports the inference form and trains it itself");
    }
    Tensor x = tensor(0);
    Map<String, Const> roles = new LinkedHashMap<>();
    roles.put(ParamRole.GAMMA.role(), initializer(1, "scale"));
    roles.put(ParamRole.BETA.role(), initializer(2, "bias"));
    roles.put(AuxRole.MOVING_MEAN.role(), initializer(3, "mean"));
    roles.put(AuxRole.MOVING_VAR.role(), initializer(4, "variance"));
    BatchNormOp op =
        BatchNormOp.channelAxis(1).eps(f("epsilon", 1e-5)).momentum(f("momentum", 0.9));
    emitTo(0, op, List.of(x), roles);
  }

  private void pool(boolean max) {
    onlyFirstOutput();
    Tensor x = tensor(0);
    int spatial = x.shape().rank() - 2;
    if (spatial < 1 || spatial > 3) {
      throw fail("Kiln imports 1-D, 2-D and 3-D pooling, the input is " + x.shape());
    }
    List<Integer> kernel = ints("kernel_shape");
    if (kernel == null) {
      throw fail("it has no kernel_shape");
    }
    List<Integer> strides = or(ints("strides"), spatial, 1);
    List<Integer> dilations = or(ints("dilations"), spatial, 1);
    if (dilations.stream().anyMatch(d -> d != 1)) {
      throw fail("Kiln's pooling has no dilation, got " + dilations);
    }
    if (i("storage_order", 0) != 0) {
      throw fail("storage_order = 1 (column-major indices) is not Kiln's");
    }
    List<Integer> pads = pads(x.shape(), kernel, strides, dilations, spatial);
    if (!max && i("count_include_pad", 0) == 0 && pads.stream().anyMatch(p -> p > 0)) {
      throw fail(
          "count_include_pad = 0 with padding: Kiln's average counts the padding (MXNet's"
              + " default); export with count_include_pad = 1 or without padding");
    }
    PoolOp op = max ? PoolOp.max(toInts(kernel)) : PoolOp.avg(toInts(kernel));
    op =
        op.stride(toInts(strides))
            .pad(toInts(pads))
            .convention(i("ceil_mode", 0) != 0 ? PoolConvention.FULL : PoolConvention.VALID);
    emitTo(0, op, x);
  }

  private void flatten() {
    Value v = value(0);
    int axis = i("axis", 1);
    if (v instanceof Const c) {
      int rank = c.dims().length;
      int a = axis < 0 ? axis + rank : axis;
      long rows = 1;
      for (int k = 0; k < a; k++) {
        rows *= c.dims()[k];
      }
      define(0, new Const(new long[] {rows, c.count() / Math.max(rows, 1)}, c.numbers(), null));
      return;
    }
    Tensor x = (Tensor) v;
    int rank = x.shape().rank();
    int a = axis < 0 ? axis + rank : axis;
    for (int k = 0; k < a && a != 1 && k < rank; k++) {
      size(0, x, k);
    }
    if (a == 1) {
      emitTo(0, new FlattenOp(), x);
    } else if (!x.shape().hasBatch()) {
      int rows = x.shape().dims().subList(0, a).stream().reduce(1, (p, q) -> p * q);
      emitTo(0, ReshapeOp.of(rows, -1), x);
    } else {
      throw fail("axis " + axis + " merges the batch with other axes; Kiln flattens from axis 1");
    }
  }

  private void reshape() {
    long[] target;
    if (opset < 5) {
      List<Integer> shape = ints("shape");
      target = shape.stream().mapToLong(Integer::longValue).toArray();
    } else {
      target = constant(1, "shape").longs();
    }
    Value v = value(0);
    if (v instanceof Const c) {
      define(0, new Const(resolveConst(target, c), c.numbers(), c.initializer()));
      return;
    }
    Tensor x = (Tensor) v;
    if (i("allowzero", 0) != 0 && Arrays.stream(target).anyMatch(d -> d == 0)) {
      throw fail("allowzero = 1 with a 0 in the shape makes an empty tensor; Kiln copies");
    }
    emitTo(0, ReshapeOp.of(reshapeTarget(target, x.shape())), x);
  }

  /**
   * ONNX's target as Kiln's: {@code 0} copies and {@code -1} infers in both; a size folded from the
   * batch ({@link #BATCH_SIZE}) is the batch copied from its place, or inferred.
   */
  private int[] reshapeTarget(long[] target, TShape in) {
    int[] out = new int[target.length];
    boolean infers = Arrays.stream(target).anyMatch(d -> d == -1);
    int batches = 0;
    for (int k = 0; k < target.length; k++) {
      long d = target[k];
      if (d == BATCH_SIZE) {
        batches++;
        if (k < in.rank() && in.dim(k) == TShape.BATCH) {
          out[k] = 0;
        } else if (!infers && batches == 1) {
          out[k] = -1;
        } else {
          throw fail(
              "its shape puts the batch at axis "
                  + k
                  + " beside another size to infer; Kiln needs one unknown size");
        }
      } else if (d < -1 || d > Integer.MAX_VALUE) {
        throw fail("its shape " + Arrays.toString(target) + " has size " + d);
      } else {
        out[k] = (int) d;
      }
    }
    return out;
  }

  private long[] resolveConst(long[] target, Const c) {
    long[] out = target.clone();
    long known = 1;
    int infer = -1;
    for (int k = 0; k < out.length; k++) {
      if (out[k] == 0) {
        out[k] = c.dims()[k];
      }
      if (out[k] == -1) {
        infer = k;
      } else {
        known *= out[k];
      }
    }
    if (infer >= 0) {
      out[infer] = c.count() / Math.max(known, 1);
    }
    return out;
  }

  private void transpose() {
    List<Integer> perm = ints("perm");
    Value v = value(0);
    if (v instanceof Const c && c.dims().length <= 1) {
      define(0, c);
      return;
    }
    Tensor x = tensor(0);
    emitTo(0, perm == null ? TransposeOp.reverse() : TransposeOp.axes(toInts(perm)), x);
  }

  private void concat() {
    int axis = i("axis", 0);
    List<Value> in = new ArrayList<>();
    for (int k = 0; k < node.getInputCount(); k++) {
      if (has(k)) {
        in.add(value(k));
      }
    }
    if (in.stream().allMatch(v -> v instanceof Const c && c.numbers() != null)) {
      if (in.stream().anyMatch(v -> ((Const) v).dims().length > 1)) {
        throw fail("it concatenates constants of rank above 1");
      }
      List<Double> all = new ArrayList<>();
      for (Value v : in) {
        for (double d : ((Const) v).numbers()) {
          all.add(d);
        }
      }
      define(
          0,
          new Const(
              new long[] {all.size()},
              all.stream().mapToDouble(Double::doubleValue).toArray(),
              null));
      return;
    }
    List<Tensor> tensors = new ArrayList<>();
    for (int k = 0; k < node.getInputCount(); k++) {
      if (has(k)) {
        tensors.add(tensor(k));
      }
    }
    if (tensors.size() == 1) {
      define(0, tensors.get(0));
      valueNodes.put(node.getOutput(0), tensors.get(0).node());
      return;
    }
    emitTo(0, new ConcatOp(axis), tensors, Map.of());
  }

  /** {@code Softmax} or, with {@code log}, {@code LogSoftmax}. */
  private void softmax(boolean log) {
    Tensor x = tensor(0);
    int rank = x.shape().rank();
    if (opset < 13) {
      int axis = i("axis", 1);
      int a = axis < 0 ? axis + rank : axis;
      if (a != rank - 1) {
        throw fail(
            "before operator set 13 a softmax normalises the input read as 2-D from axis "
                + axis
                + " on, which for "
                + x.shape()
                + " is not one axis; Kiln's softmax is over one axis");
      }
      emitTo(0, log ? LogSoftmaxOp.axis(-1) : SoftmaxOp.axis(-1), x);
    } else {
      int axis = i("axis", -1);
      emitTo(0, log ? LogSoftmaxOp.axis(axis) : SoftmaxOp.axis(axis), x);
    }
  }

  /**
   * An element-wise function of one input: folded on a constant when {@code fold} computes it, else
   * {@code op}.
   */
  private void unary(LayerOp op, java.util.function.DoubleUnaryOperator fold) {
    Value v = value(0);
    if (fold != null && v instanceof Const c && c.numbers() != null) {
      double[] out = new double[c.count()];
      for (int k = 0; k < out.length; k++) {
        out[k] = fold.applyAsDouble(c.numbers()[k]);
      }
      define(0, new Const(c.dims(), out, null));
      return;
    }
    emitTo(0, op, tensor(0));
  }

  /**
   * {@code Pow}: by one constant exponent MXNet's {@code _power_scalar}, else (a tensor exponent,
   * or several) its {@code broadcast_power}, broadcasting as NumPy does.
   */
  private void pow() {
    Value e = value(1);
    if (e instanceof Const c && c.numbers() != null && c.count() == 1) {
      double exponent = c.numbers()[0];
      unary(ScalarOp.power(exponent), x -> Math.pow(x, exponent));
      return;
    }
    binary(BroadcastOp.power());
  }

  /**
   * {@code Sum} or {@code Mean} of any number of inputs, broadcasting as NumPy does: a chain of
   * additions, the mean's scaled by one over the count.
   */
  private void variadic(boolean mean) {
    List<Integer> present = new ArrayList<>();
    for (int k = 0; k < node.getInputCount(); k++) {
      if (has(k)) {
        present.add(k);
      }
    }
    if (present.isEmpty()) {
      throw fail("it has no inputs");
    }
    int rank = 0;
    for (int k : present) {
      Value v = value(k);
      rank = Math.max(rank, v instanceof Tensor t ? t.shape().rank() : ((Const) v).dims().length);
    }
    Tensor acc = null;
    for (int j = 0; j < present.size(); j++) {
      int k = present.get(j);
      Value v = value(k);
      Tensor t = v instanceof Tensor x ? rankUp(x, rank) : broadcastView(k, (Const) v, rank);
      if (acc == null) {
        acc = t;
        continue;
      }
      Op add = acc.shape().equals(t.shape()) ? new AddOp() : BroadcastOp.add();
      if (j == present.size() - 1 && !mean) {
        emitTo(0, add, List.of(acc, t), Map.of());
        return;
      }
      acc = emit(fresh("sum" + j), add, List.of(acc, t), Map.of(), false);
    }
    if (mean && present.size() > 1) {
      emitTo(0, ScalarOp.times(1.0 / present.size()), acc);
    } else {
      define(0, acc);
      valueNodes.put(node.getOutput(0), acc.node());
    }
  }

  private void clip() {
    double min = Double.NEGATIVE_INFINITY;
    double max = Double.POSITIVE_INFINITY;
    if (opset < 11) {
      min = f("min", min);
      max = f("max", max);
    } else {
      if (has(1)) {
        min = constant(1, "min").numbers()[0];
      }
      if (has(2)) {
        max = constant(2, "max").numbers()[0];
      }
    }
    emitTo(0, ClipOp.between(min, max), tensor(0));
  }

  /** {@code Squeeze} or {@code Unsqueeze}: a reshape to the static shape with or without ones. */
  private void squeeze(boolean unsqueeze) {
    List<Integer> axes;
    if (opset < 13) {
      axes = ints("axes");
    } else {
      axes = has(1) ? toList(constant(1, "axes").longs()) : null;
    }
    Value v = value(0);
    List<Long> dims = new ArrayList<>();
    if (v instanceof Const c) {
      for (long d : c.dims()) {
        dims.add(d);
      }
    } else {
      Tensor t = (Tensor) v;
      for (int k = 0; k < t.shape().rank(); k++) {
        int d = size(0, t, k);
        dims.add(d < 0 ? BATCH_SIZE : (long) d);
      }
    }
    List<Long> out = new ArrayList<>(dims);
    if (unsqueeze) {
      if (axes == null) {
        throw fail("it names no axes");
      }
      int rank = dims.size() + axes.size();
      TreeSet<Integer> sorted = new TreeSet<>();
      axes.forEach(a -> sorted.add(a < 0 ? a + rank : a));
      for (int a : sorted) {
        out.add(a, 1L);
      }
    } else {
      TreeSet<Integer> sorted = new TreeSet<>();
      if (axes == null) {
        for (int k = 0; k < dims.size(); k++) {
          if (dims.get(k) == 1) {
            sorted.add(k);
          }
        }
      } else {
        axes.forEach(a -> sorted.add(a < 0 ? a + dims.size() : a));
      }
      for (int a : sorted.descendingSet()) {
        if (dims.get(a) != 1) {
          throw fail("axis " + a + " of size " + dims.get(a) + " cannot be squeezed");
        }
        out.remove(a);
      }
    }
    long[] target = out.stream().mapToLong(Long::longValue).toArray();
    if (v instanceof Const c) {
      define(0, new Const(target, c.numbers(), c.initializer()));
      return;
    }
    Tensor x = (Tensor) v;
    int[] t = new int[target.length];
    for (int k = 0; k < t.length; k++) {
      t[k] = target[k] == BATCH_SIZE ? -1 : (int) target[k];
    }
    emitTo(0, ReshapeOp.of(t), x);
  }

  /** {@code Gather}: folded on constants, an embedding lookup of an initializer table. */
  private void gather() {
    int axis = i("axis", 0);
    Value data = value(0);
    Value indices = value(1);
    if (data instanceof Const c && indices instanceof Const idx && c.numbers() != null) {
      define(0, gatherConst(c, idx, axis));
      return;
    }
    if (data instanceof Tensor x
        && indices instanceof Const idx
        && idx.dims().length == 1
        && idx.count() > 1) {
      // x[..., [i, j, ...], ...]: one slice per index, concatenated along the axis.
      int rank = x.shape().rank();
      int a = axis < 0 ? axis + rank : axis;
      int size = size(0, x, a);
      List<Tensor> parts = new ArrayList<>();
      for (long i0 : idx.longs()) {
        long at = size > 0 && i0 < 0 ? i0 + size : i0;
        if (at < 0 || size > 0 && at >= size) {
          throw fail("index " + i0 + " is outside axis " + a + " of " + x.shape());
        }
        parts.add(
            emit(
                fresh("index" + at),
                SliceOp.axis(a).begin((int) at).end((int) at + 1),
                List.of(x),
                Map.of(),
                false));
      }
      emitTo(0, new ConcatOp(a), parts, Map.of());
      return;
    }
    if (data instanceof Tensor x && indices instanceof Const idx && idx.count() == 1) {
      // x[..., i, ...]: a slice of one index along the axis, dropped for a scalar index.
      int rank = x.shape().rank();
      int a = axis < 0 ? axis + rank : axis;
      int size = size(0, x, a);
      long at = idx.longs()[0];
      if (size > 0 && at < 0) {
        at += size;
      }
      if (at < 0 || size > 0 && at >= size) {
        throw fail("index " + idx.longs()[0] + " is outside axis " + a + " of " + x.shape());
      }
      SliceOp op = SliceOp.axis(a).begin((int) at).end((int) at + 1);
      if (idx.dims().length == 1) {
        emitTo(0, op, x);
        return;
      }
      Tensor one = emit(fresh("slice"), op, List.of(x), Map.of(), false);
      int[] target = new int[rank - 1];
      for (int k = 0, j = 0; k < rank; k++) {
        if (k != a) {
          int d = x.shape().dim(k);
          target[j++] = d == TShape.BATCH ? 0 : d;
        }
      }
      emitTo(0, ReshapeOp.of(target), one);
      return;
    }
    if (data instanceof Const table
        && table.initializer() != null
        && table.dims().length == 2
        && axis == 0) {
      Tensor ids = tensor(1);
      EmbeddingOp op = EmbeddingOp.rows((int) table.dims()[0]).columns((int) table.dims()[1]);
      emitTo(0, op, List.of(ids), Map.of(ParamRole.WEIGHT.role(), table));
      return;
    }
    throw fail(
        "Kiln imports a Gather from a constant (folded), of one constant index from a tensor (a"
            + " slice), or from an initializer table [rows, columns] along axis 0 (an embedding)");
  }

  /** {@code Gather} of constant indices {@code idx} from constant {@code c} along {@code axis}. */
  private Const gatherConst(Const c, Const idx, int axis) {
    long[] dims = c.dims();
    int rank = dims.length;
    if (rank == 0) {
      throw fail("it gathers from a scalar");
    }
    int a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
      throw fail("axis " + axis + " is outside the rank " + rank + " of its data");
    }
    long outer = 1;
    for (int k = 0; k < a; k++) {
      outer *= dims[k];
    }
    long inner = 1;
    for (int k = a + 1; k < rank; k++) {
      inner *= dims[k];
    }
    long[] at = idx.longs();
    double[] out = new double[Math.toIntExact(outer * at.length * inner)];
    int w = 0;
    for (long o = 0; o < outer; o++) {
      for (long i0 : at) {
        long i = i0 < 0 ? i0 + dims[a] : i0;
        if (i < 0 || i >= dims[a]) {
          throw fail("index " + i0 + " is outside the " + dims[a] + " values of axis " + a);
        }
        int from = Math.toIntExact((o * dims[a] + i) * inner);
        System.arraycopy(c.numbers(), from, out, w, (int) inner);
        w += (int) inner;
      }
    }
    long[] outDims = new long[rank - 1 + idx.dims().length];
    int j = 0;
    for (int k = 0; k < a; k++) {
      outDims[j++] = dims[k];
    }
    for (long d : idx.dims()) {
      outDims[j++] = d;
    }
    for (int k = a + 1; k < rank; k++) {
      outDims[j++] = dims[k];
    }
    return new Const(outDims, out, null);
  }

  /**
   * {@code Split}: each output a slice of the axis, the sizes from the {@code split} attribute
   * (before set 13) or input, else equal parts ({@code num_outputs} from set 18, the last one
   * smaller where the size does not divide).
   */
  private void split() {
    Tensor x = tensor(0);
    int rank = x.shape().rank();
    int axis = i("axis", 0);
    int a = axis < 0 ? axis + rank : axis;
    if (a < 0 || a >= rank) {
      throw fail("axis " + axis + " is outside the rank of " + x.shape());
    }
    int size = size(0, x, a);
    if (size < 0) {
      throw fail("it splits axis " + a + " of " + x.shape() + ", whose size is not fixed");
    }
    int parts = node.getOutputCount();
    List<Integer> sizes;
    if (opset < 13) {
      sizes = ints("split");
    } else {
      sizes = has(1) ? toList(constant(1, "split").longs()) : null;
    }
    if (sizes == null || sizes.isEmpty()) {
      int n = opset >= 18 && attr("num_outputs") != null ? i("num_outputs", parts) : parts;
      if (n != parts) {
        throw fail("num_outputs = " + n + " but it has " + parts + " outputs");
      }
      int chunk = opset >= 18 ? (size + n - 1) / n : size / n;
      if (opset < 18 && size % n != 0) {
        throw fail("axis " + a + " of size " + size + " does not split into " + n + " equal parts");
      }
      sizes = new ArrayList<>();
      for (int k = 0, left = size; k < n; k++) {
        sizes.add(Math.min(chunk, left));
        left -= Math.min(chunk, left);
      }
    }
    if (sizes.size() != parts || sizes.stream().mapToInt(Integer::intValue).sum() != size) {
      throw fail(
          "its parts "
              + sizes
              + " do not cover axis "
              + a
              + " of size "
              + size
              + " in "
              + parts
              + " outputs");
    }
    int begin = 0;
    for (int k = 0; k < parts; k++) {
      int end = begin + sizes.get(k);
      if (sizes.get(k) <= 0) {
        throw fail("its part " + k + " is empty; Kiln's slices are not");
      }
      if (!node.getOutput(k).isEmpty()) {
        Tensor t =
            emit(
                fresh("output" + k),
                SliceOp.axis(a).begin(begin).end(end),
                List.of(x),
                Map.of(),
                false);
        define(k, t);
        valueNodes.put(node.getOutput(k), t.node());
      }
      begin = end;
    }
  }

  /**
   * {@code DepthToSpace}: a reshape, a transpose and a reshape, channels read depth-column-row
   * ({@code DCR}, MXNet's {@code depth_to_space}) or column-row-depth ({@code CRD}).
   */
  private void depthToSpace() {
    Tensor x = tensor(0);
    if (x.shape().rank() != 4) {
      throw fail("Kiln moves depth to space in images [N, C, H, W], the input is " + x.shape());
    }
    int b = i("blocksize", 0);
    int c = size(0, x, 1);
    int h = size(0, x, 2);
    int w = size(0, x, 3);
    if (b < 1 || c < 0 || h < 0 || w < 0 || c % (b * b) != 0) {
      throw fail(
          "blocksize "
              + b
              + " does not divide the channels of "
              + x.shape()
              + " into blocksize² parts");
    }
    int n = x.shape().dim(0) == TShape.BATCH ? 0 : x.shape().dim(0);
    String mode = s("mode", "DCR");
    int[] split;
    int[] perm;
    switch (mode) {
      case "DCR" -> {
        split = new int[] {n, b, b, c / (b * b), h, w};
        perm = new int[] {0, 3, 4, 1, 5, 2};
      }
      case "CRD" -> {
        split = new int[] {n, c / (b * b), b, b, h, w};
        perm = new int[] {0, 1, 4, 2, 5, 3};
      }
      default -> throw fail("mode " + mode + " is neither DCR nor CRD");
    }
    Tensor blocks = emit(fresh("blocks"), ReshapeOp.of(split), List.of(x), Map.of(), false);
    Tensor moved = emit(fresh("moved"), TransposeOp.axes(perm), List.of(blocks), Map.of(), false);
    emitTo(0, ReshapeOp.of(n, c / (b * b), h * b, w * b), moved);
  }

  private void slice() {
    List<Integer> starts;
    List<Integer> ends;
    List<Integer> axes;
    List<Integer> steps;
    if (opset < 10) {
      starts = ints("starts");
      ends = ints("ends");
      axes = ints("axes");
      steps = null;
    } else {
      starts = toListClamped(constant(1, "starts").longs());
      ends = toListClamped(constant(2, "ends").longs());
      axes = has(3) ? toList(constant(3, "axes").longs()) : null;
      steps = has(4) ? toList(constant(4, "steps").longs()) : null;
    }
    if (steps != null && steps.stream().anyMatch(s -> s != 1)) {
      throw fail("steps " + steps + ": Kiln slices with step 1");
    }
    Value v = value(0);
    if (v instanceof Const c && c.dims().length == 1 && c.numbers() != null) {
      int n = c.count();
      int b = clampIndex(starts.get(0), n);
      int e = clampIndex(ends.get(0), n);
      double[] out = Arrays.copyOfRange(c.numbers(), b, Math.max(b, e));
      define(0, new Const(new long[] {out.length}, out, null));
      return;
    }
    Tensor x = tensor(0);
    for (int k = 0; k < starts.size(); k++) {
      int axis = axes == null ? k : axes.get(k);
      int rank = x.shape().rank();
      int a = axis < 0 ? axis + rank : axis;
      int size = size(0, x, a);
      int b = starts.get(k);
      int e = ends.get(k);
      if (size > 0) {
        b = clampIndex(b, size);
        e = clampIndex(e, size);
      }
      SliceOp op = SliceOp.axis(a).begin(b);
      if (size <= 0 || e < size) {
        op = op.end(e);
      } else {
        op = new SliceOp(a, b, Slice.END, false);
      }
      boolean last = k == starts.size() - 1;
      if (last) {
        emitTo(0, op, x);
      } else {
        x = emit(fresh("axis" + a), op, List.of(x), Map.of(), false);
      }
    }
  }

  private static int clampIndex(int i, int size) {
    int v = i < 0 ? i + size : i;
    return Math.max(0, Math.min(v, size));
  }

  private static List<Integer> toListClamped(long[] values) {
    List<Integer> out = new ArrayList<>();
    for (long v : values) {
      out.add((int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v)));
    }
    return out;
  }

  private void reduce(ReduceOp.Kind kind, int axesAsInput) {
    List<Integer> axes;
    if (opset < axesAsInput) {
      axes = ints("axes");
    } else {
      axes = has(1) ? toList(constant(1, "axes").longs()) : null;
    }
    if (axes == null || axes.isEmpty()) {
      if (i("noop_with_empty_axes", 0) != 0) {
        cast();
        return;
      }
      throw fail("it reduces every axis, the batch's too; Kiln keeps one value per example");
    }
    Tensor x = tensor(0);
    ReduceOp op = new ReduceOp(kind, axes, i("keepdims", 1) != 0);
    emitTo(0, op, x);
  }

  private void resize() {
    Tensor x = tensor(0);
    if (x.shape().rank() != 4) {
      throw fail("Kiln resizes images [N, C, H, W], the input is " + x.shape());
    }
    double[] scales = null;
    if (node.getOpType().equals("Upsample")) {
      scales = opset < 9 ? floats("scales") : constant(1, "scales").numbers();
    } else if (opset < 11) {
      scales = constant(1, "scales").numbers();
    } else if (has(2) && constant(2, "scales").count() > 0) {
      scales = constant(2, "scales").numbers();
    } else if (has(3)) {
      long[] sizes = constant(3, "sizes").longs();
      scales = new double[4];
      for (int k = 0; k < 4; k++) {
        int size = size(0, x, k);
        scales[k] = size > 0 ? (double) sizes[k] / size : 1;
      }
    }
    if (scales == null
        || scales.length != 4
        || scales[0] != 1
        || scales[1] != 1
        || scales[2] != scales[3]
        || scales[2] != Math.rint(scales[2])
        || scales[2] < 1) {
      throw fail(
          "its scales "
              + Arrays.toString(scales)
              + " are not one whole factor along height and width; Kiln upsamples by one");
    }
    int scale = (int) scales[2];
    String mode = s("mode", "nearest");
    String transform = s("coordinate_transformation_mode", "half_pixel");
    if (mode.equals("nearest")) {
      String rounding = s("nearest_mode", "round_prefer_floor");
      boolean repeats =
          node.getOpType().equals("Upsample")
              || transform.equals("asymmetric") && rounding.equals("floor")
              || transform.equals("half_pixel") && !rounding.equals("ceil");
      if (!repeats) {
        throw fail(
            "nearest with "
                + transform
                + " and "
                + rounding
                + " does not repeat each value;"
                + " Kiln's nearest upsampling does");
      }
      emitTo(0, UpsampleOp.nearest(scale), x);
    } else if ((mode.equals("linear") || mode.equals("bilinear"))
        && transform.equals("align_corners")) {
      emitTo(0, UpsampleOp.bilinear(scale), x);
    } else {
      throw fail(
          "mode "
              + mode
              + " with "
              + transform
              + ": Kiln upsamples by nearest, or linear with align_corners");
    }
  }

  /** {@code Tile} by constant repeats, one per axis. */
  private void tile() {
    Tensor x = tensor(0);
    long[] reps = constant(1, "repeats").longs();
    if (reps.length != x.shape().rank()) {
      throw fail("its repeats " + Arrays.toString(reps) + " are not one per axis of " + x.shape());
    }
    for (int k = 0; k < reps.length; k++) {
      if (reps[k] != 1 && x.shape().dim(k) == TShape.BATCH) {
        throw fail("it repeats the batch (axis " + k + ") " + reps[k] + " times; Kiln keeps it");
      }
    }
    emitTo(0, TileOp.repeat(toInts(reps)), x);
  }

  /**
   * {@code Expand} to a constant shape, broadcasting both ways as NumPy does: axes of size 1 grow
   * to the shape's, axes the shape gives as 1 keep theirs.
   */
  private void expand() {
    long[] target = constant(1, "shape").longs();
    Value v = value(0);
    int rank =
        Math.max(
            target.length, v instanceof Tensor t ? t.shape().rank() : ((Const) v).dims().length);
    Tensor x = v instanceof Tensor t ? rankUp(t, rank) : broadcastView(0, (Const) v, rank);
    int[] sizes = new int[rank];
    boolean grows = false;
    for (int k = 0; k < rank; k++) {
      int j = k - (rank - target.length);
      long want = j < 0 ? 1 : target[j];
      int have = want == 1 ? x.shape().dim(k) : size(0, x, k);
      if (want == 1 || want == BATCH_SIZE && have == TShape.BATCH || want == have) {
        sizes[k] = 0;
      } else if (have == 1 && want > 1 && want <= Integer.MAX_VALUE) {
        sizes[k] = (int) want;
        grows = true;
      } else {
        throw fail(
            "axis "
                + k
                + " of "
                + x.shape()
                + " cannot grow to "
                + (want == BATCH_SIZE ? "the batch" : Long.toString(want))
                + " of shape "
                + Arrays.toString(target));
      }
    }
    if (!grows) {
      define(0, x);
      valueNodes.put(node.getOutput(0), x.node());
      return;
    }
    emitTo(0, TileOp.expand(sizes), x);
  }

  /**
   * {@code Pad} of the spatial axes of images and volumes (MXNet's {@code Pad}): constant, edge or
   * reflect; pads as attribute (before set 11) or input, {@code axes} from set 18.
   */
  private void pad() {
    Tensor x = tensor(0);
    int rank = x.shape().rank();
    String mode = s("mode", "constant");
    long[] pads;
    double fill = 0;
    List<Integer> axes = null;
    if (opset < 11) {
      List<Integer> p = ints(opset < 2 ? "paddings" : "pads");
      pads = p == null ? new long[0] : p.stream().mapToLong(Integer::longValue).toArray();
      fill = f("value", 0);
    } else {
      pads = constant(1, "pads").longs();
      if (has(2)) {
        Const c = constant(2, "constant_value");
        fill = c.count() == 0 ? 0 : c.numbers()[0];
      }
      if (has(3)) {
        axes = toList(constant(3, "axes").longs());
      }
    }
    if (axes == null) {
      axes = new ArrayList<>();
      for (int k = 0; k < pads.length / 2; k++) {
        axes.add(k);
      }
    }
    if (pads.length != 2 * axes.size()) {
      throw fail("its pads " + Arrays.toString(pads) + " are not two per axis of " + x.shape());
    }
    int[] widths = new int[2 * rank];
    for (int k = 0; k < axes.size(); k++) {
      int a = axes.get(k) < 0 ? axes.get(k) + rank : axes.get(k);
      long before = pads[k];
      long after = pads[k + axes.size()];
      if (before < 0 || after < 0) {
        throw fail("its pads " + Arrays.toString(pads) + " crop (negative); Kiln pads only");
      }
      widths[2 * a] = Math.toIntExact(before);
      widths[2 * a + 1] = Math.toIntExact(after);
    }
    if (rank != 4 && rank != 5) {
      throw fail(
          "MXNet pads images [N, C, H, W] and volumes [N, C, D, H, W], the input is " + x.shape());
    }
    if (widths[0] != 0 || widths[1] != 0 || widths[2] != 0 || widths[3] != 0) {
      throw fail(
          "its pads "
              + Arrays.toString(pads)
              + " pad the batch or channel axis; MXNet pads the spatial axes only");
    }
    PadOp op =
        switch (mode) {
          case "constant" -> PadOp.constant(fill, widths);
          case "edge" -> PadOp.edge(widths);
          case "reflect" -> PadOp.reflect(widths);
          default -> throw fail("mode " + mode + ": Kiln pads with constant, edge or reflect");
        };
    emitTo(0, op, x);
  }

  /**
   * {@code LSTM}, {@code GRU} or {@code RNN}: MXNet's fused {@code RNN} of one layer, its flat
   * vector made of W, R and B ({@link OnnxRecurrent}); time-major ({@code layout = 0}) as MXNet
   * runs it, batch-first ({@code layout = 1}, set 14) through Kiln's wrapper; {@code Y} reshaped
   * (and for time-major transposed) into ONNX's {@code [.., dirs, .., units]}.
   */
  private void recurrent() {
    if (reads(2)) {
      throw fail(
          "its output 2, the final cell state ("
              + node.getOutput(2)
              + "), is read; Kiln's fused layer gives the sequence, and the final hidden state"
              + " taken from it, not the cell state");
    }
    String op = node.getOpType();
    int units = i("hidden_size", 0);
    if (units < 1) {
      throw fail("its hidden_size is " + units + "; Kiln needs it positive");
    }
    String direction = s("direction", "forward");
    if (!direction.equals("forward") && !direction.equals("bidirectional")) {
      throw fail("direction " + direction + ": Kiln runs forward or bidirectional");
    }
    if (attr("clip") != null) {
      throw fail("clip: MXNet 1.9.1 clips no recurrent cell on CPU");
    }
    if (i("input_forget", 0) != 0) {
      throw fail("input_forget = 1 couples the gates; MXNet's LSTM does not");
    }
    for (int k = 4; k < node.getInputCount(); k++) {
      if (!has(k)) {
        continue;
      }
      String what =
          switch (k) {
            case 4 -> "sequence_lens";
            case 5 -> "initial_h";
            case 6 -> "initial_c";
            default -> "P (peepholes)";
          };
      Value v = value(k);
      boolean zeros =
          k != 4
              && v instanceof Const c
              && c.numbers() != null
              && Arrays.stream(c.numbers()).allMatch(d -> d == 0);
      if (!zeros) {
        throw fail(
            "its "
                + what
                + " ("
                + node.getInput(k)
                + ") is given; Kiln's recurrent layers start at zeros and run every step"
                + (k == 4 ? " (MXNet 1.9.1 ignores lengths on CPU)" : ""));
      }
    }
    RecurrentOp cell;
    List<String> acts = strings("activations");
    switch (op) {
      case "LSTM" -> {
        requireActivations(acts, List.of("Sigmoid", "Tanh", "Tanh"));
        cell = RecurrentOp.lstm(units);
      }
      case "GRU" -> {
        requireActivations(acts, List.of("Sigmoid", "Tanh"));
        if (i("linear_before_reset", 0) != 1) {
          throw fail(
              "linear_before_reset = 0 applies the reset gate before the recurrent weights;"
                  + " MXNet's (cuDNN's) GRU applies it after: export with linear_before_reset = 1");
        }
        cell = RecurrentOp.gru(units);
      }
      default -> {
        String a = acts == null || acts.isEmpty() ? "Tanh" : acts.get(0);
        if (acts != null && acts.stream().anyMatch(x -> !x.equals(a))) {
          throw fail("its activations " + acts + " differ by direction; MXNet's do not");
        }
        cell =
            switch (a) {
              case "Tanh" -> RecurrentOp.tanh(units);
              case "Relu" -> RecurrentOp.relu(units);
              default -> throw fail("activation " + a + ": MXNet's RNN is Tanh or Relu");
            };
      }
    }
    boolean both = direction.equals("bidirectional");
    if (both) {
      cell = cell.inBothDirections();
    }
    int dirs = both ? 2 : 1;
    Tensor x = tensor(0);
    if (x.shape().rank() != 3) {
      throw fail("its input is " + x.shape() + "; ONNX's sequences are rank 3");
    }
    boolean batchFirst = opset >= 14 && i("layout", 0) == 1;
    int steps = size(0, x, batchFirst ? 1 : 0);
    int batch = size(0, x, batchFirst ? 0 : 1);
    int features = size(0, x, 2);
    if (steps < 0 || features < 0) {
      throw fail("its input " + x.shape() + " has no fixed number of steps or features");
    }
    Const w = initializer(1, "W");
    initializer(2, "R");
    String bias = has(3) ? initializer(3, "B").initializer() : null;
    RnnLayout layout = new RnnLayout(cell.mode(), features, units, 1, both);
    recurrent = new OnnxRecurrent(layout, w.initializer(), node.getInput(2), bias);
    Map<String, Const> roles =
        Map.of(ParamRole.PARAMETERS.role(), new Const(new long[] {layout.size()}, null, null));
    Tensor out;
    int n = batch < 0 ? 0 : batch;
    if (batchFirst) {
      cell = cell.over(batch, steps, features);
      Tensor y = emit(fresh("sequence"), cell, List.of(x), roles, false);
      out = emit(fresh(""), ReshapeOp.of(n, steps, dirs, units), List.of(y), Map.of(), false);
    } else {
      cell = cell.overTimeMajor(batch, features);
      Tensor y = emit(fresh("sequence"), cell, List.of(x), roles, false);
      Tensor split =
          emit(
              fresh("directions"),
              ReshapeOp.of(steps, n, dirs, units),
              List.of(y),
              Map.of(),
              false);
      out = emit(fresh(""), TransposeOp.axes(0, 2, 1, 3), List.of(split), Map.of(), false);
    }
    define(0, out);
    valueNodes.put(node.getOutput(0), out.node());
    if (reads(1)) {
      finalHidden(out, batchFirst, steps, dirs, units, n);
    }
  }

  /**
   * {@code Y_h} taken from {@code Y}: the forward direction's last step and the reverse direction's
   * first, {@code [dirs, batch, units]} ({@code [batch, dirs, units]} batch-first).
   */
  private void finalHidden(Tensor y, boolean batchFirst, int steps, int dirs, int units, int n) {
    int stepAxis = batchFirst ? 1 : 0;
    int dirAxis = batchFirst ? 2 : 1;
    List<Tensor> parts = new ArrayList<>();
    for (int d = 0; d < dirs; d++) {
      int step = d == 0 ? steps - 1 : 0;
      Tensor at =
          emit(
              fresh("step" + step),
              SliceOp.axis(stepAxis).begin(step).end(step + 1),
              List.of(y),
              Map.of(),
              false);
      parts.add(
          dirs == 1
              ? at
              : emit(
                  fresh("direction" + d),
                  SliceOp.axis(dirAxis).begin(d).end(d + 1),
                  List.of(at),
                  Map.of(),
                  false));
    }
    Tensor both =
        parts.size() == 1
            ? parts.get(0)
            : emit(fresh("final"), new ConcatOp(dirAxis), parts, Map.of(), false);
    // 0 copies the batch where it stays (axis 0 batch-first); time-major it moves, so -1 infers it.
    int[] shape =
        batchFirst ? new int[] {n, dirs, units} : new int[] {dirs, n == 0 ? -1 : n, units};
    emitTo(1, ReshapeOp.of(shape), both);
  }

  private List<String> strings(String name) {
    AttributeProto a = attr(name);
    return a == null
        ? null
        : a.getStringsList().stream().map(b -> b.toString(StandardCharsets.UTF_8)).toList();
  }

  /** The activations, if written, are ONNX's defaults for each direction. */
  private void requireActivations(List<String> acts, List<String> defaults) {
    if (acts == null || acts.isEmpty()) {
      return;
    }
    for (int k = 0; k < acts.size(); k++) {
      if (!acts.get(k).equals(defaults.get(k % defaults.size()))) {
        throw fail(
            "its activations "
                + acts
                + " are not "
                + defaults
                + " per direction; MXNet's cells have these only");
      }
    }
  }

  private void instanceNorm() {
    Tensor x = tensor(0);
    Map<String, Const> roles = new LinkedHashMap<>();
    roles.put(ParamRole.GAMMA.role(), initializer(1, "scale"));
    roles.put(ParamRole.BETA.role(), initializer(2, "bias"));
    emitTo(0, InstanceNormOp.eps(f("epsilon", 1e-5)), List.of(x), roles);
  }

  private double[] floats(String name) {
    AttributeProto a = attr(name);
    return a == null ? null : a.getFloatsList().stream().mapToDouble(Float::doubleValue).toArray();
  }

  private void layerNorm() {
    onlyFirstOutput();
    Tensor x = tensor(0);
    int axis = i("axis", -1);
    int rank = x.shape().rank();
    if ((axis < 0 ? axis + rank : axis) != rank - 1) {
      throw fail("axis " + axis + ": Kiln normalises the last axis");
    }
    Map<String, Const> roles = new LinkedHashMap<>();
    roles.put(ParamRole.GAMMA.role(), initializer(1, "scale"));
    if (!has(2)) {
      throw fail("it has no bias; Kiln's layer norm has one");
    }
    roles.put(ParamRole.BETA.role(), initializer(2, "bias"));
    emitTo(0, LayerNormOp.axis(-1).eps(f("epsilon", 1e-5)), List.of(x), roles);
  }

  // ---------------------------------------------------------------------------------------------

  private static List<Integer> or(List<Integer> values, int n, int fill) {
    if (values != null && !values.isEmpty()) {
      return values;
    }
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      out.add(fill);
    }
    return out;
  }

  private static int[] toInts(List<Integer> values) {
    return values.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int[] toInts(long[] values) {
    int[] out = new int[values.length];
    for (int k = 0; k < out.length; k++) {
      out[k] = Math.toIntExact(values[k]);
    }
    return out;
  }

  private static List<Integer> toList(long[] values) {
    List<Integer> out = new ArrayList<>();
    for (long v : values) {
      out.add(Math.toIntExact(v));
    }
    return out;
  }

  private static float[] toFloats(double[] values) {
    float[] out = new float[values.length];
    for (int k = 0; k < out.length; k++) {
      out[k] = (float) values[k];
    }
    return out;
  }
}
