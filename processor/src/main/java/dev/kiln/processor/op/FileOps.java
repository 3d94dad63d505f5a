package dev.kiln.processor.op;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.PoolConvention;
import dev.kiln.annotations.Slice;
import dev.kiln.names.AuxRole;
import dev.kiln.names.ParamRole;
import dev.kiln.names.RnnCell;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.RuleError;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The operators of MXNet symbol files that Kiln imports ({@code @Imported}), each mapped to the op
 * unit of a built-in layer with the attributes read from the file, so that an imported node is
 * checked, costed and emitted exactly as the layer is. Names of older MXNet versions ({@code
 * _Plus}, {@code _plus}) map as their current ones. An attribute the unit cannot honour is refused
 * ({@link FileAttrs#done}), never dropped.
 */
public final class FileOps {
  private FileOps() {}

  /** What one input of a file operator is. */
  public enum Kind {
    /** A value computed by another node or fed to the model. */
    DATA,
    /** A learnable parameter, a variable of the file with a role ({@code weight}). */
    PARAM,
    /** An auxiliary state ({@code moving_mean}). */
    AUX,
    /** A loss head's label, which Kiln's own training feeds: dropped from the import. */
    LABEL,
    /**
     * A recurrent layer's initial state, a variable of the file (which MXNet's Module API feeds
     * zeros) or its {@code _zeros} node ({@code begin_state}): Kiln's own state argument, zeros at
     * every call, takes its place.
     */
    STATE
  }

  /**
   * One input of a file operator, in MXNet's argument order.
   *
   * @param kind what it is
   * @param role a parameter's or auxiliary state's role, the part after {@code <node>_}; null for
   *     data
   */
  public record Arg(Kind kind, String role) {
    static final Arg DATA = new Arg(Kind.DATA, null);
    static final Arg LABEL = new Arg(Kind.LABEL, "label");
    static final Arg STATE = new Arg(Kind.STATE, null);

    static Arg param(ParamRole role) {
      return new Arg(Kind.PARAM, role.role());
    }

    static Arg aux(AuxRole role) {
      return new Arg(Kind.AUX, role.role());
    }
  }

  /**
   * What the importer makes of one file node.
   *
   * @param op the op unit, with the node's attributes
   * @param args the operator's inputs in MXNet's order
   * @param outputs for an operator of several outputs ({@code SliceChannel}), the op of each, which
   *     becomes a node of its own when the import reads it; empty for one output
   */
  public record Mapped(Op op, List<Arg> args, List<Op> outputs) {
    /** Copies the inputs and outputs. */
    public Mapped {
      args = List.copyOf(args);
      outputs = List.copyOf(outputs);
    }

    /** A node of one output. */
    public Mapped(Op op, List<Arg> args) {
      this(op, args, List.of());
    }
  }

  private static final Map<String, Function<FileAttrs, Mapped>> OPS = new TreeMap<>();

  /** MXNet's older names of operators, mapped to their current ones. */
  private static final Map<String, String> ALIASES = new TreeMap<>();

  static {
    OPS.put("Convolution", FileOps::convolution);
    OPS.put("FullyConnected", FileOps::fullyConnected);
    OPS.put("Activation", FileOps::activation);
    OPS.put("Pooling", FileOps::pooling);
    OPS.put("Flatten", a -> unary(a, new FlattenOp()));
    OPS.put("SoftmaxOutput", FileOps::softmaxOutput);
    OPS.put("softmax", FileOps::softmax);
    OPS.put("BatchNorm", FileOps::batchNorm);
    OPS.put("Dropout", FileOps::dropout);
    OPS.put("elemwise_add", a -> data(a, new AddOp(), 2));
    OPS.put("add_n", FileOps::addN);
    OPS.put("Concat", FileOps::concat);
    OPS.put("Reshape", FileOps::reshape);
    OPS.put("broadcast_mul", a -> data(a, new BroadcastOp(BroadcastOp.Kind.MULTIPLY), 2));
    OPS.put("broadcast_sub", a -> data(a, new BroadcastOp(BroadcastOp.Kind.SUBTRACT), 2));
    OPS.put("broadcast_div", a -> data(a, new BroadcastOp(BroadcastOp.Kind.DIVIDE), 2));
    OPS.put("broadcast_maximum", a -> data(a, new BroadcastOp(BroadcastOp.Kind.MAXIMUM), 2));
    OPS.put("broadcast_add", a -> data(a, new AddOp(), 2));
    OPS.put("clip", FileOps::clip);
    OPS.put("dot", FileOps::dot);
    OPS.put("batch_dot", FileOps::dot);
    OPS.put("transpose", FileOps::transpose);
    OPS.put("slice_axis", FileOps::sliceAxis);
    OPS.put("mean", a -> reduce(a, ReduceOp.Kind.MEAN));
    OPS.put("sum", a -> reduce(a, ReduceOp.Kind.SUM));
    OPS.put("SliceChannel", FileOps::sliceChannel);
    OPS.put("LeakyReLU", FileOps::leakyRelu);
    OPS.put("LRN", FileOps::lrn);
    OPS.put("Deconvolution", FileOps::deconvolution);
    OPS.put("Embedding", FileOps::embedding);
    OPS.put("LinearRegressionOutput", a -> regression(a, "l2", "L2Loss"));
    OPS.put("MAERegressionOutput", a -> regression(a, "l1", "L1Loss"));
    OPS.put("LogisticRegressionOutput", a -> regression(a, "logistic", "LogisticLoss"));
    OPS.put("RNN", FileOps::rnn);
    OPS.put("SwapAxis", a -> unary(a, new SwapOp(a.integer("dim1", 0), a.integer("dim2", 0))));
    ALIASES.put("flatten", "Flatten");
    ALIASES.put("_Plus", "elemwise_add");
    ALIASES.put("_plus", "elemwise_add");
    ALIASES.put("_add", "elemwise_add");
    ALIASES.put("ElementWiseSum", "add_n");
    ALIASES.put("concat", "Concat");
    ALIASES.put("reshape", "Reshape");
    // Element-wise operators of equal shapes are the broadcasting ones restricted.
    for (String name : List.of("elemwise_mul", "_Mul", "_mul")) {
      ALIASES.put(name, "broadcast_mul");
    }
    for (String name : List.of("elemwise_sub", "_Minus", "_minus", "_sub")) {
      ALIASES.put(name, "broadcast_sub");
    }
    for (String name : List.of("elemwise_div", "_Div", "_div")) {
      ALIASES.put(name, "broadcast_div");
    }
    for (String name : List.of("_Maximum", "_maximum")) {
      ALIASES.put(name, "broadcast_maximum");
    }
    ALIASES.put("broadcast_plus", "broadcast_add");
    ALIASES.put("sum_axis", "sum");
    ALIASES.put("split", "SliceChannel");
    ALIASES.put("swapaxes", "SwapAxis");
  }

  /** The current names of the operators Kiln imports, in name order. */
  public static Set<String> current() {
    return Collections.unmodifiableSet(OPS.keySet());
  }

  /** The older names of operators Kiln imports, in name order. */
  public static Set<String> older() {
    return Collections.unmodifiableSet(ALIASES.keySet());
  }

  /** Whether Kiln imports operator {@code op}. */
  public static boolean known(String op) {
    return OPS.containsKey(ALIASES.getOrDefault(op, op));
  }

  /**
   * The op unit for a node of operator {@code op} with {@code attrs}, named {@code where} in
   * messages.
   *
   * @throws RuleError when the node has an attribute the unit cannot honour
   * @throws IllegalArgumentException when Kiln does not import {@code op} (see {@link #known})
   */
  public static Mapped map(String where, String op, Map<String, String> attrs) {
    String current = ALIASES.getOrDefault(op, op);
    Function<FileAttrs, Mapped> mapper = OPS.get(current);
    if (mapper == null) {
      throw new IllegalArgumentException("not imported: " + op);
    }
    FileAttrs a = new FileAttrs(where, op, attrs);
    Mapped m = mapper.apply(a);
    a.done();
    return m;
  }

  private static Mapped unary(FileAttrs a, Op op) {
    return new Mapped(op, List.of(Arg.DATA));
  }

  private static Mapped data(FileAttrs a, Op op, int inputs) {
    return new Mapped(op, Collections.nCopies(inputs, Arg.DATA));
  }

  private static Mapped convolution(FileAttrs a) {
    a.ignore("workspace", "cudnn_tune", "cudnn_off");
    List<Integer> kernel = a.tuple("kernel", List.of());
    int spatial = kernel.size();
    if (spatial < 1 || spatial > 2) {
      throw a.unsupported("kernel", "Kiln imports 1-D and 2-D convolutions");
    }
    a.require("layout", spatial == 1 ? "NCW" : "NCHW", "Kiln computes channels first");
    boolean noBias = a.bool("no_bias", false);
    Op op =
        new ConvOp(
            spatial,
            a.integer("num_filter", 0),
            kernel,
            orDefault(a.tuple("stride", List.of()), 1),
            orDefault(a.tuple("pad", List.of()), 0),
            orDefault(a.tuple("dilate", List.of()), 1),
            a.integer("num_group", 1),
            Act.NONE,
            noBias);
    return new Mapped(op, weighted(noBias));
  }

  private static Mapped fullyConnected(FileAttrs a) {
    boolean noBias = a.bool("no_bias", false);
    Op op = new DenseOp(a.integer("num_hidden", 0), Act.NONE, noBias, a.bool("flatten", true));
    return new Mapped(op, weighted(noBias));
  }

  /** Data, weight and, unless {@code noBias}, bias. */
  private static List<Arg> weighted(boolean noBias) {
    List<Arg> args = new ArrayList<>(List.of(Arg.DATA, Arg.param(ParamRole.WEIGHT)));
    if (!noBias) {
      args.add(Arg.param(ParamRole.BIAS));
    }
    return args;
  }

  private static Mapped activation(FileAttrs a) {
    String type = a.choice("act_type", null, "relu", "sigmoid", "tanh", "softrelu", "softsign");
    if (type == null) {
      throw a.unsupported("act_type", "an Activation needs its act_type");
    }
    Act act =
        switch (type) {
          case "relu" -> Act.RELU;
          case "sigmoid" -> Act.SIGMOID;
          case "tanh" -> Act.TANH;
          case "softrelu" -> Act.SOFTRELU;
          default -> Act.SOFTSIGN;
        };
    return unary(a, new ActivationOp(act, Double.NaN));
  }

  private static Mapped pooling(FileAttrs a) {
    a.ignore("cudnn_off");
    a.require("layout", "NCHW", "Kiln computes channels first");
    String type = a.choice("pool_type", "max", "max", "avg");
    if (type.equals("avg")) {
      a.require("count_include_pad", "True", "Kiln's average counts the padding");
    }
    if (a.bool("global_pool", false)) {
      a.ignore("kernel", "stride", "pad", "pooling_convention");
      return unary(a, new GlobalPoolOp(type.equals("max")));
    }
    String convention = a.choice("pooling_convention", "valid", "valid", "full");
    List<Integer> kernel = a.tuple("kernel", List.of());
    if (kernel.size() != 1 && kernel.size() != 2) {
      throw a.unsupported("kernel", "Kiln imports 1-D and 2-D pooling");
    }
    Op op =
        new PoolOp(
            type.equals("max") ? PoolOp.Type.MAX : PoolOp.Type.AVG,
            kernel,
            orDefault(a.tuple("stride", List.of()), 1),
            orDefault(a.tuple("pad", List.of()), 0),
            convention.equals("full") ? PoolConvention.FULL : PoolConvention.VALID);
    return unary(a, op);
  }

  private static Mapped lrn(FileAttrs a) {
    Op op =
        new LrnOp(
            a.integer("nsize", 0),
            a.decimal("alpha", 1e-4),
            a.decimal("beta", 0.75),
            a.decimal("knorm", 2));
    return unary(a, op);
  }

  private static Mapped softmaxOutput(FileAttrs a) {
    a.ignore("grad_scale", "ignore_label", "normalization", "out_grad");
    a.require("multi_output", "False", "Kiln imports a softmax over the last axis of [N, classes]");
    a.require("preserve_shape", "False", "Kiln imports a softmax over [N, classes]");
    a.require("use_ignore", "False", "Kiln's classifier training counts every label");
    a.require("smooth_alpha", "0", "Kiln's classifier training does not smooth labels");
    return new Mapped(new SoftmaxOp(-1), List.of(Arg.DATA, Arg.LABEL));
  }

  private static Mapped softmax(FileAttrs a) {
    a.ignore("dtype");
    a.require("temperature", "None", "Kiln's softmax has no temperature");
    a.require("use_length", "False", "Kiln's softmax takes no lengths");
    return unary(a, new SoftmaxOp(a.integer("axis", -1)));
  }

  private static Mapped batchNorm(FileAttrs a) {
    a.ignore("cudnn_off");
    a.require("use_global_stats", "False", "Kiln's batch norm trains its statistics");
    a.require("output_mean_var", "False", "Kiln's batch norm has one output");
    Op op =
        new BatchNormOp(
            a.decimal("eps", 1e-3),
            a.decimal("momentum", 0.9),
            a.integer("axis", 1),
            a.bool("fix_gamma", true));
    return new Mapped(
        op,
        List.of(
            Arg.DATA,
            Arg.param(ParamRole.GAMMA),
            Arg.param(ParamRole.BETA),
            Arg.aux(AuxRole.MOVING_MEAN),
            Arg.aux(AuxRole.MOVING_VAR)));
  }

  private static Mapped dropout(FileAttrs a) {
    a.ignore("cudnn_off");
    a.require("mode", "training", "Kiln's dropout is active in training only");
    List<Integer> axes = a.tuple("axes", List.of());
    if (!axes.isEmpty()) {
      throw a.unsupported("axes", "Kiln's dropout drops single values");
    }
    return unary(a, new DropoutOp(a.decimal("p", 0.5)));
  }

  private static Mapped addN(FileAttrs a) {
    return data(a, new AddOp(), a.integer("num_args", 2));
  }

  private static Mapped concat(FileAttrs a) {
    int n = a.integer("num_args", 2);
    return data(a, new ConcatOp(a.has("dim") ? a.integer("dim", 1) : 1), n);
  }

  private static Mapped reshape(FileAttrs a) {
    a.require("reverse", "False", "Kiln reads a reshape left to right");
    a.require("keep_highest", "False", "Kiln's reshape takes its shape alone");
    List<Integer> target = a.tuple("target_shape", List.of());
    if (!target.isEmpty()) {
      throw a.unsupported("target_shape", "Kiln imports the shape attribute");
    }
    return unary(a, new ReshapeOp(a.tuple("shape", List.of())));
  }

  private static Mapped leakyRelu(FileAttrs a) {
    String type = a.choice("act_type", "leaky", "leaky", "elu", "gelu", "selu", "prelu");
    a.ignore("lower_bound", "upper_bound");
    if (type.equals("prelu")) {
      a.ignore("slope");
      return new Mapped(new PReluOp(), List.of(Arg.DATA, Arg.param(ParamRole.ALPHA)));
    }
    double slope = a.decimal("slope", 0.25);
    Op op =
        switch (type) {
          case "leaky" -> new ActivationOp(Act.LEAKY_RELU, slope);
          case "elu" -> new ActivationOp(Act.ELU, slope);
          case "gelu" -> new ActivationOp(Act.GELU, Double.NaN);
          default -> new ActivationOp(Act.SELU, Double.NaN);
        };
    return unary(a, op);
  }

  private static Mapped deconvolution(FileAttrs a) {
    a.ignore("workspace", "cudnn_tune", "cudnn_off");
    List<Integer> kernel = a.tuple("kernel", List.of());
    if (kernel.size() != 2) {
      throw a.unsupported("kernel", "Kiln imports 2-D transposed convolutions");
    }
    a.require("layout", "NCHW", "Kiln computes channels first");
    if (!a.tuple("target_shape", List.of()).isEmpty()) {
      throw a.unsupported(
          "target_shape", "Kiln imports a transposed convolution's adj, not a target");
    }
    boolean noBias = a.bool("no_bias", true);
    Op op =
        new DeconvOp(
            a.integer("num_filter", 0),
            kernel,
            orDefault(a.tuple("stride", List.of()), 1),
            orDefault(a.tuple("pad", List.of()), 0),
            orDefault(a.tuple("adj", List.of()), 0),
            orDefault(a.tuple("dilate", List.of()), 1),
            a.integer("num_group", 1),
            Act.NONE,
            noBias);
    return new Mapped(op, weighted(noBias));
  }

  private static Mapped embedding(FileAttrs a) {
    a.require("dtype", "float32", "Kiln computes in float32");
    a.require("sparse_grad", "False", "Kiln's embedding has a dense gradient");
    Op op = new EmbeddingOp(a.integer("input_dim", 0), a.integer("output_dim", 0));
    return new Mapped(op, List.of(Arg.DATA, Arg.param(ParamRole.WEIGHT)));
  }

  /** A regression head: the loss head whose inference output is the same. */
  private static Mapped regression(FileAttrs a, String kind, String annotation) {
    a.ignore("grad_scale");
    return new Mapped(new LossOp(kind, annotation), List.of(Arg.DATA, Arg.LABEL));
  }

  private static Mapped sliceChannel(FileAttrs a) {
    int n = a.integer("num_outputs", 0);
    int axis = a.integer("axis", 1);
    boolean squeeze = a.bool("squeeze_axis", false);
    List<Op> parts = new ArrayList<>();
    for (int i = 0; i < Math.max(1, n); i++) {
      parts.add(new SplitOp(n, i, axis, squeeze));
    }
    return new Mapped(parts.get(0), List.of(Arg.DATA), parts);
  }

  /**
   * MXNet's fused {@code RNN}, time-major as the file has it: data, the flat parameter vector and
   * the initial states (an LSTM's two), which Kiln starts from zeros.
   */
  private static Mapped rnn(FileAttrs a) {
    a.ignore("state_outputs");
    a.require("projection_size", "None", "Kiln's recurrent layers have no projection");
    a.require("lstm_state_clip_min", "None", "Kiln's LSTM does not clip its cell");
    a.require("lstm_state_clip_max", "None", "Kiln's LSTM does not clip its cell");
    a.require("lstm_state_clip_nan", "False", "Kiln's LSTM does not clip its cell");
    a.require("use_sequence_length", "False", "Kiln's recurrent layers read every step");
    String mode = a.choice("mode", null, "rnn_relu", "rnn_tanh", "lstm", "gru");
    if (mode == null) {
      throw a.unsupported("mode", "an RNN needs its mode");
    }
    RnnCell cell =
        switch (mode) {
          case "rnn_relu" -> RnnCell.RNN_RELU;
          case "rnn_tanh" -> RnnCell.RNN_TANH;
          case "lstm" -> RnnCell.LSTM;
          default -> RnnCell.GRU;
        };
    Op op =
        new RecurrentOp(
            cell,
            a.integer("state_size", 0),
            a.integer("num_layers", 0),
            a.bool("bidirectional", false),
            a.decimal("p", 0),
            true,
            false,
            cell == RnnCell.RNN_RELU ? Act.RELU : Act.TANH,
            true);
    List<Arg> args = new ArrayList<>(List.of(Arg.DATA, Arg.param(ParamRole.PARAMETERS), Arg.STATE));
    if (cell == RnnCell.LSTM) {
      args.add(Arg.STATE);
    }
    return new Mapped(op, args);
  }

  private static Mapped clip(FileAttrs a) {
    return unary(a, new ClipOp(a.decimal("a_min", Double.NaN), a.decimal("a_max", Double.NaN)));
  }

  private static Mapped dot(FileAttrs a) {
    a.ignore("forward_stype");
    Op op = new MatMulOp(a.bool("transpose_a", false), a.bool("transpose_b", false));
    return data(a, op, 2);
  }

  private static Mapped transpose(FileAttrs a) {
    return unary(a, new TransposeOp(a.tuple("axes", List.of())));
  }

  private static Mapped sliceAxis(FileAttrs a) {
    int end = a.string("end", "None").equals("None") ? Slice.END : a.integer("end", Slice.END);
    return unary(a, new SliceOp(a.integer("axis", 0), a.integer("begin", 0), end));
  }

  private static Mapped reduce(FileAttrs a, ReduceOp.Kind kind) {
    a.require("exclude", "False", "Kiln reduces the axes named");
    List<Integer> axes = a.tuple("axis", List.of());
    if (axes.isEmpty()) {
      throw a.unsupported(
          "axis", "the file reduces every axis, the batch's too; Kiln keeps one value per example");
    }
    return unary(a, new ReduceOp(kind, axes, a.bool("keepdims", false)));
  }

  /** {@code values}, or {@code fallback} once when they are empty (MXNet's "not set"). */
  private static List<Integer> orDefault(List<Integer> values, int fallback) {
    return values.isEmpty() ? List.of(fallback) : values;
  }
}
