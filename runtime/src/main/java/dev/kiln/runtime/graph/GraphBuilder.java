package dev.kiln.runtime.graph;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.PointerByReference;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.mxnet.MxException;
import dev.kiln.runtime.mxnet.ShapeInference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * Builds one model's MXNet symbol, node by node. Generated {@code XGraph} classes call one method
 * per declared node; every method names the MXNet operators it emits after the node ({@code
 * hidden}, {@code hidden_relu}) and its parameters {@code <node>_weight} and {@code <node>_bias}
 * (normalisations: {@code <node>_gamma}, {@code <node>_beta}, and the auxiliary states {@code
 * <node>_moving_mean}, {@code <node>_moving_var}), and remembers where the node was declared so
 * that errors can point back to it.
 *
 * <p>The builder owns every symbol handle it makes until {@link #build} groups the outputs into the
 * {@link Graph}'s one symbol and frees the rest; {@link #close()} frees whatever a failed build
 * left, so generated code builds inside try-with-resources. A builder is used once.
 */
public final class GraphBuilder implements AutoCloseable {
  private final String model;
  private final List<Pointer> handles = new ArrayList<>();
  private final List<InputSpec> inputs = new ArrayList<>();
  private final Map<String, NodeSource> sources = new LinkedHashMap<>();
  private final Set<String> variables = new HashSet<>();
  private final Set<String> reorderedWeights = new LinkedHashSet<>();
  private final Map<String, ParamSpec.Kind> paramKinds = new LinkedHashMap<>();
  private final Map<String, String> paramNodes = new LinkedHashMap<>();
  private final List<String> labels = new ArrayList<>();
  private final Map<String, Shape> knownShapes = new LinkedHashMap<>();
  private final Map<String, AuxSpec.Kind> auxKinds = new LinkedHashMap<>();
  private final Map<String, String> auxNodes = new LinkedHashMap<>();
  private final Set<String> frozenNodes = new HashSet<>();
  private final List<ReshapeGuard.Check> reshapes = new ArrayList<>();
  private final Map<String, RnnLayout> rnnLayouts = new LinkedHashMap<>();
  private final List<StateSpec> states = new ArrayList<>();
  private final List<Sym> stateOutputs = new ArrayList<>();
  private final List<AxisCheck> axisChecks = new ArrayList<>();
  private final List<String> unrolledCells = new ArrayList<>();
  private final boolean classifier;
  private int steps;
  private IntFunction<Graph> rebuild;
  private boolean built;

  /** A builder for the model named {@code model} (its interface's simple name). */
  public GraphBuilder(String model) {
    this(model, false);
  }

  /**
   * A builder for {@code model}; with {@code classifier}, {@link #classifierHead} emits MXNet's
   * {@code SoftmaxOutput} (softmax with cross-entropy loss) instead of a plain softmax.
   */
  public GraphBuilder(String model, boolean classifier) {
    this.model = model;
    this.classifier = classifier;
  }

  /**
   * A builder for {@code model} (with {@code classifier} as above) that unrolls every custom
   * recurrent cell whose sequence has {@code Dim.STEPS} steps over {@code steps} steps (see {@link
   * #cell}), and gives the graph {@code rebuild}, which builds the same model for any number of
   * steps (the generated model's {@code graph(classifier, steps)}), so that an executor bound for
   * another length gets a graph of its own ({@link Graph#unroll}). Shape inference in {@link
   * #build} gives every {@code STEPS} dimension {@code steps}.
   *
   * @throws IllegalArgumentException if {@code steps} is less than 1
   */
  public GraphBuilder(String model, boolean classifier, int steps, IntFunction<Graph> rebuild) {
    this(model, classifier);
    if (steps < 1) {
      throw new IllegalArgumentException(
          model + ": a cell is unrolled over at least one step, " + "got " + steps);
    }
    this.steps = steps;
    this.rebuild = java.util.Objects.requireNonNull(rebuild, "rebuild");
  }

  /** A model input: an MXNet variable named after the node. */
  public Sym input(NodeSource src, Shape shape) {
    sources.put(src.node(), src);
    inputs.add(new InputSpec(src.node(), shape));
    SymNode v = (SymNode) variable(src.node());
    return new SymNode(v.name(), v.handle(), src);
  }

  /**
   * A fully connected layer ({@code FullyConnected}), then the activation unless {@code Act.NONE}:
   * parameters {@code <node>_weight} {@code [units, in]} and, unless {@code noBias}, {@code
   * <node>_bias} {@code [units]}.
   */
  public Sym dense(NodeSource src, Sym x, DenseSpec spec) {
    int units = spec.units();
    Act activation = spec.activation();
    boolean noBias = spec.noBias();
    boolean flatten = spec.flatten();
    String node = src.node();
    Sym weight = param(node, "weight", ParamSpec.Kind.WEIGHT);
    List<String> keys = new ArrayList<>(List.of("data", "weight"));
    List<Sym> args = new ArrayList<>(List.of(x, weight));
    if (!noBias) {
      keys.add("bias");
      args.add(param(node, "bias", ParamSpec.Kind.BIAS));
    }
    Sym fc =
        op(
            src,
            "FullyConnected",
            node,
            attrs("num_hidden", units, "no_bias", noBias, "flatten", flatten),
            keys,
            args);
    return activation == Act.NONE ? fc : activate(src, fc, activation);
  }

  /** An element-wise activation ({@code Activation}). */
  public Sym activation(NodeSource src, Sym x, Act activation) {
    return op(
        src,
        "Activation",
        src.node(),
        attrs("act_type", activation.mxnetName()),
        List.of("data"),
        List.of(x));
  }

  /** Softmax along {@code axis} ({@code softmax}). */
  public Sym softmax(NodeSource src, Sym x, int axis) {
    axisChecks.add(new AxisCheck(src, "softmax", List.of(x), axis, false));
    return op(src, "softmax", src.node(), attrs("axis", axis), List.of("data"), List.of(x));
  }

  /**
   * A classifier's last {@code @Softmax}: a plain softmax when building the model, and when
   * building for classifier training MXNet's {@code SoftmaxOutput}, whose forward is the same
   * softmax and whose backward is the gradient of the mean cross-entropy against the label variable
   * {@code <node>_label} (class indices, one per example). It needs no head gradient.
   */
  public Sym classifierHead(NodeSource src, Sym x, int axis) {
    if (!classifier) {
      return softmax(src, x, axis);
    }
    axisChecks.add(new AxisCheck(src, "softmax", List.of(x), axis, true));
    String labelName = src.node() + "_label";
    labels.add(labelName);
    Sym label = variable(labelName);
    return op(
        src,
        "SoftmaxOutput",
        src.node(),
        attrs("normalization", "batch", "preserve_shape", true),
        List.of("data", "label"),
        List.of(x, label));
  }

  /** Collapses every dimension after the first ({@code Flatten}). */
  public Sym flatten(NodeSource src, Sym x) {
    return op(src, "Flatten", src.node(), attrs(), List.of("data"), List.of(x));
  }

  /** Element-wise sum ({@code elemwise_add} for two inputs, {@code add_n} for more). */
  public Sym add(NodeSource src, Sym... xs) {
    if (xs.length == 2) {
      return op(src, "elemwise_add", src.node(), attrs(), List.of("lhs", "rhs"), List.of(xs));
    }
    return op(src, "add_n", src.node(), attrs("num_args", xs.length), null, List.of(xs));
  }

  /** Concatenation along {@code axis} ({@code Concat}). */
  public Sym concat(NodeSource src, int axis, Sym... xs) {
    axisChecks.add(new AxisCheck(src, "concat", List.of(xs), axis, false));
    return op(
        src, "Concat", src.node(), attrs("num_args", xs.length, "dim", axis), null, List.of(xs));
  }

  /**
   * A parameter of a custom layer used by node {@code src}: the variable {@code <node>_<name>} of
   * the given shape, initialised by the model's initialiser or, with {@code zeros}, to zero.
   */
  public Sym customParam(NodeSource src, String name, Shape shape, boolean zeros) {
    String full = src.node() + "_" + name;
    if (!shape.isComplete()) {
      throw new IllegalArgumentException(
          src
              + ": custom parameter "
              + full
              + " needs a "
              + "complete shape (each dimension a size: it is allocated once, for every batch), got "
              + shape);
    }
    paramKinds.put(full, zeros ? ParamSpec.Kind.BIAS : ParamSpec.Kind.WEIGHT);
    paramNodes.put(full, src.node());
    knownShapes.put(full, shape);
    SymNode v = (SymNode) variable(full);
    return new SymNode(full, v.handle(), shape, null);
  }

  /**
   * A custom layer used by node {@code src}: traces {@code forward} once over {@code input} (whose
   * shape the processor inferred as {@code inputShape}), checking every operation's shapes as it
   * goes, then checks the result against the layer's declared output shape and names it after the
   * node. {@code params} are the layer's parameters, from {@link #customParam}, in the forward
   * method's order.
   */
  public Sym custom(
      NodeSource src,
      String layer,
      Shape inputShape,
      Shape outputShape,
      Sym input,
      List<Sym> params,
      java.util.function.BiFunction<Sym, List<Sym>, Sym> forward) {
    SymNode in = (SymNode) input;
    NodeSource from = sources.get(in.name());
    Trace trace = new Trace(src, layer, src.node());
    SymNode tracedInput =
        new SymNode(
            in.name(), in.handle(), inputShape, trace, from == null ? in.name() : from.node());
    List<Sym> traced = new ArrayList<>();
    for (Sym p : params) {
      SymNode n = (SymNode) p;
      traced.add(new SymNode(n.name(), n.handle(), n.shape(), trace));
    }
    trace.start(tracedInput, traced);
    Sym result = forward.apply(tracedInput, traced);
    if (!(result instanceof SymNode out) || (out.shape() == null)) {
      throw new ModelException(
          src,
          src
              + ": the forward pass of layer "
              + layer
              + " must return a Sym computed from its input"
              + trace.steps(),
          null);
    }
    if (!out.shape().equals(outputShape)) {
      throw new ModelException(
          src,
          src
              + ": layer "
              + layer
              + " declares output shape "
              + outputShape
              + " but its forward pass returned "
              + out.shape()
              + trace.steps(),
          null);
    }
    return op(src, "identity", src.node(), attrs(), List.of("data"), List.of(out));
  }

  /**
   * One step of a custom recurrent cell, as generated code passes it to {@link #cell}: the step's
   * input, the previous step's state and the layer's parameters give the new state.
   */
  @FunctionalInterface
  public interface CellStep {
    /** The new state after {@code input}, from {@code state}, with {@code params}. */
    Sym apply(Sym input, Sym state, List<Sym> params);
  }

  /**
   * A custom recurrent cell used by node {@code src}, unrolled over a sequence {@code input} of
   * shape {@code inputShape}, {@code [N, steps, in...]}, where {@code steps} is a constant or
   * {@code Dim.STEPS}; over {@code STEPS}, the cell is unrolled over the number of steps this
   * builder was made for ({@link #GraphBuilder(String, boolean, int, IntFunction)}), so each number
   * of steps has a graph of its own, all reading the same parameters. The sequence is split into
   * its steps ({@code SliceChannel} {@code <node>_steps}, the steps axis squeezed); {@code step} is
   * traced once per step, over that step's input and the previous step's state, checking every
   * operation's shapes as {@link #custom} does, and each step's result must have the state shape
   * (the declared {@code outputShape}, {@code [N, steps, state...]}, without the steps). Every step
   * reads the same parameters {@code params} (from {@link #customParam}); step {@code t}'s
   * operators are named {@code <node>_t<t>_<op><n>}. The first step's state is the state argument
   * {@code <node>_state}, bound to zeros (see {@link StateSpec}), and the node's output is every
   * step's state, stacked along axis 1 ({@code stack}, named after the node), so gradients flow
   * back through every step.
   */
  public Sym cell(
      NodeSource src,
      String layer,
      Shape inputShape,
      Shape outputShape,
      Sym input,
      List<Sym> params,
      CellStep step) {
    checkOpen();
    int declared = inputShape.rank() < 2 ? 0 : inputShape.dim(1);
    boolean overSteps = declared == Shape.STEPS;
    boolean fits =
        (declared > 0 || overSteps)
            && outputShape.rank() >= 2
            && outputShape.dim(1) == declared
            && !hasSteps(withoutAxis(inputShape, 1))
            && !hasSteps(withoutAxis(outputShape, 1));
    if (!fits) {
      throw new ModelException(
          src,
          src
              + ": cell "
              + layer
              + " needs a sequence with a constant "
              + "number of steps or Dim.STEPS after the first dimension, and STEPS nowhere else, got "
              + "input "
              + inputShape
              + " and output "
              + outputShape,
          null);
    }
    if (overSteps && steps == 0) {
      throw new ModelException(
          src,
          src
              + ": cell "
              + layer
              + " reads "
              + inputShape
              + ", whose "
              + "Dim.STEPS steps are unrolled for the number an executor is bound for; build the "
              + "graph for a number of steps with new GraphBuilder(model, classifier, steps, "
              + "rebuild), as the generated model does",
          null);
    }
    int steps = overSteps ? this.steps : declared;
    if (overSteps) {
      unrolledCells.add(src.node());
    }
    String node = src.node();
    Shape stepShape = withoutAxis(inputShape, 1);
    Shape stateShape = withoutAxis(outputShape, 1);
    String stateName = node + "_state";
    int batch = inputShape.dim(0) > 0 ? inputShape.dim(0) : Shape.BATCH;
    states.add(new StateSpec(stateName, node, false, stateShape, false, -1, batch));
    knownShapes.put(stateName, stateShape.withBatch(1));
    SymNode state = (SymNode) variable(stateName);
    Sym split =
        op(
            src,
            "SliceChannel",
            node + "_steps",
            attrs("num_outputs", steps, "axis", 1, "squeeze_axis", true),
            List.of("data"),
            List.of(input));
    List<Sym> stepStates = new ArrayList<>();
    NodeSource from = sources.get(input.name());
    String sequence = from == null ? input.name() : from.node();
    for (int t = 0; t < steps; t++) {
      Trace trace = new Trace(src, layer, node + "_t" + t);
      SymNode x = (SymNode) output(split, t);
      List<Sym> traced = new ArrayList<>();
      for (Sym p : params) {
        SymNode n = (SymNode) p;
        traced.add(new SymNode(n.name(), n.handle(), n.shape(), trace));
      }
      SymNode stepInput =
          new SymNode(x.name(), x.handle(), stepShape, trace, sequence + " step " + t);
      trace.start(stepInput, traced);
      Sym next =
          step.apply(
              stepInput, new SymNode(state.name(), state.handle(), stateShape, trace), traced);
      if (!(next instanceof SymNode out) || out.shape() == null) {
        throw new ModelException(
            src,
            src
                + ": the forward pass of cell "
                + layer
                + " must "
                + "return a Sym computed from its input and state"
                + trace.steps(),
            null);
      }
      if (!out.shape().equals(stateShape)) {
        throw new ModelException(
            src,
            src
                + ": cell "
                + layer
                + " declares state shape "
                + stateShape
                + " but one step of its forward pass returned "
                + out.shape()
                + "; a cell's forward pass returns the new state"
                + trace.steps(),
            null);
      }
      stepStates.add(out);
      state = out;
    }
    return op(src, "stack", node, attrs("axis", 1, "num_args", steps), null, stepStates);
  }

  private static boolean hasSteps(Shape shape) {
    return Arrays.stream(shape.dims()).anyMatch(d -> d == Shape.STEPS);
  }

  /** {@code shape} without dimension {@code axis}. */
  private static Shape withoutAxis(Shape shape, int axis) {
    int[] d = shape.dims();
    int[] out = new int[d.length - 1];
    for (int i = 0, j = 0; i < d.length; i++) {
      if (i != axis) {
        out[j++] = d[i];
      }
    }
    return Shape.of(out);
  }

  /**
   * One custom layer's forward pass, or one step of a cell's, being traced: names its operators
   * {@code <prefix>_<op><n>} and checks each operation's shapes, reporting the layer, the node, the
   * operation and both shapes when they do not fit, with every operation traced before it and its
   * shapes. {@code BATCH} is symbolic here: it matches only itself (and 1 when broadcasting).
   */
  final class Trace {
    private final NodeSource src;
    private final String layer;
    private final String prefix;
    private final StringBuilder steps = new StringBuilder();
    private int counter;

    Trace(NodeSource src, String layer, String prefix) {
      this.src = src;
      this.layer = layer;
      this.prefix = prefix;
    }

    /** Begins the trace over {@code input} with {@code params}, as its first line says. */
    void start(SymNode input, List<Sym> params) {
      steps
          .append("\n  shapes through the body of ")
          .append(layer)
          .append(", from input ")
          .append(input.operand());
      List<String> shown = params.stream().map(p -> ((SymNode) p).operand()).toList();
      if (shown.size() == 1) {
        steps.append(" and parameter ").append(shown.get(0)).append(" (its @Param shape)");
      } else if (!shown.isEmpty()) {
        steps
            .append(" and parameters ")
            .append(String.join(", ", shown))
            .append(" (their @Param shapes)");
      }
      steps.append(':');
    }

    /** The lines of the trace so far, each starting a new line. */
    String steps() {
      return steps.toString();
    }

    SymNode dot(SymNode a, SymNode b) {
      Shape x = a.shape();
      Shape y = b.shape();
      if (x.rank() < 1 || y.rank() < 1 || !fits(x.dim(x.rank() - 1), y.dim(0))) {
        throw error(
            "dot",
            List.of(a, b),
            "the last dimension of the left must equal the " + "first of the right");
      }
      int[] out = new int[x.rank() - 1 + y.rank() - 1];
      for (int i = 0; i < x.rank() - 1; i++) {
        out[i] = x.dim(i);
      }
      for (int j = 1; j < y.rank(); j++) {
        out[x.rank() - 2 + j] = y.dim(j);
      }
      return emit("dot", "dot", List.of("lhs", "rhs"), List.of(a, b), Shape.of(out));
    }

    SymNode broadcast(String op, String label, SymNode a, SymNode b) {
      Shape x = a.shape();
      Shape y = b.shape();
      int rank = Math.max(x.rank(), y.rank());
      int[] out = new int[rank];
      for (int i = 1; i <= rank; i++) {
        int p = i <= x.rank() ? x.dim(x.rank() - i) : 1;
        int q = i <= y.rank() ? y.dim(y.rank() - i) : 1;
        if (p == q || q == 1) {
          out[rank - i] = p;
        } else if (p == 1) {
          out[rank - i] = q;
        } else {
          throw error(label, List.of(a, b), "each pair of trailing dimensions must be equal or 1");
        }
      }
      return emit(op, label, List.of("lhs", "rhs"), List.of(a, b), Shape.of(out));
    }

    SymNode sum(SymNode a, int axis) {
      Shape x = a.shape();
      if (axis < -x.rank() || axis >= x.rank()) {
        steps
            .append("\n    sum(")
            .append(a.operand())
            .append(", axis ")
            .append(axis)
            .append(") is out of range");
        throw new ModelException(
            src,
            src
                + ": in layer "
                + layer
                + ", sum over axis "
                + axis
                + " of "
                + x
                + " is out of range (allowed: "
                + -x.rank()
                + " to "
                + (x.rank() - 1)
                + ")"
                + steps,
            null);
      }
      int ax = axis < 0 ? axis + x.rank() : axis;
      int[] d = x.dims();
      int[] out = new int[Math.max(1, d.length - 1)];
      out[0] = 1;
      for (int i = 0, j = 0; i < d.length; i++) {
        if (i != ax) {
          out[j++] = d[i];
        }
      }
      return emit(
          "sum", "sum", List.of("data"), List.of(a), Shape.of(out), "axis", Integer.toString(ax));
    }

    SymNode unary(String op, String label, SymNode a, Shape out, String... keyValues) {
      return emit(op, label, List.of("data"), List.of(a), out, keyValues);
    }

    private SymNode emit(
        String op,
        String label,
        List<String> keys,
        List<SymNode> args,
        Shape out,
        String... keyValues) {
      String name = prefix + "_" + label + counter++;
      Object[] kv = new Object[keyValues.length];
      System.arraycopy(keyValues, 0, kv, 0, kv.length);
      Sym made = op(src, op, name, attrs(kv), keys, List.copyOf(args));
      StringBuilder shown = new StringBuilder(operands(args));
      for (int i = 0; i + 1 < keyValues.length; i += 2) {
        if (!keyValues[i].equals("act_type")) {
          shown.append(", ").append(keyValues[i]).append(' ').append(keyValues[i + 1]);
        }
      }
      steps
          .append("\n    ")
          .append(name)
          .append(" = ")
          .append(label)
          .append('(')
          .append(shown)
          .append(") -> ")
          .append(out);
      return new SymNode(made.name(), ((SymNode) made).handle(), out, this);
    }

    /** The error for an operand of {@code op} named {@code operand} that is not this pass's. */
    IllegalArgumentException foreign(String op, String operand) {
      return new IllegalArgumentException(
          src
              + ": in layer "
              + layer
              + ", "
              + op
              + " reads "
              + operand
              + ", which is not a value of this forward pass; a body computes from its "
              + "input and its parameters only");
    }

    /** Dimensions fit when equal; BATCH only equals BATCH, since its size is not known yet. */
    private boolean fits(int p, int q) {
      return p == q;
    }

    private static String operands(List<SymNode> args) {
      return String.join(", ", args.stream().map(SymNode::operand).toList());
    }

    private ModelException error(String op, List<SymNode> args, String rule) {
      steps.append("\n    ").append(op).append('(').append(operands(args)).append(") does not fit");
      return new ModelException(
          src,
          src
              + ": in layer "
              + layer
              + ", "
              + op
              + " of "
              + args.get(0).shape()
              + " and "
              + args.get(1).shape()
              + " does not fit: "
              + rule
              + steps,
          null);
    }
  }

  /**
   * A 2-D convolution ({@code Convolution}) over {@code [N, C, H, W]}, then the activation unless
   * {@code Act.NONE}. Parameters {@code <node>_weight} {@code [filters, C, kh, kw]} and, unless
   * {@code noBias}, {@code <node>_bias} {@code [filters]}.
   */
  public Sym conv2d(NodeSource src, Sym x, Conv2DSpec spec) {
    int filters = spec.filters();
    int[] kernel = {spec.kernelHeight(), spec.kernelWidth()};
    int[] stride = {spec.strideHeight(), spec.strideWidth()};
    int[] pad = {spec.padHeight(), spec.padWidth()};
    int[] dilation = {spec.dilationHeight(), spec.dilationWidth()};
    Act activation = spec.activation();
    boolean noBias = spec.noBias();
    String node = src.node();
    Sym weight = param(node, "weight", ParamSpec.Kind.WEIGHT);
    List<String> keys = new ArrayList<>(List.of("data", "weight"));
    List<Sym> args = new ArrayList<>(List.of(x, weight));
    if (!noBias) {
      keys.add("bias");
      args.add(param(node, "bias", ParamSpec.Kind.BIAS));
    }
    Sym conv =
        op(
            src,
            "Convolution",
            node,
            attrs(
                "num_filter",
                filters,
                "kernel",
                tuple(kernel),
                "stride",
                tuple(stride),
                "pad",
                tuple(pad),
                "dilate",
                tuple(dilation),
                "no_bias",
                noBias),
            keys,
            args);
    return activation == Act.NONE ? conv : activate(src, conv, activation);
  }

  /**
   * 2-D max pooling ({@code Pooling}, {@code pool_type = max}, {@code pooling_convention = valid}).
   */
  public Sym maxPool(NodeSource src, Sym x, PoolSpec spec) {
    return pool(src, x, "max", spec);
  }

  /**
   * 2-D average pooling ({@code Pooling}, {@code pool_type = avg}, {@code pooling_convention =
   * valid}, padding counted as zeros).
   */
  public Sym avgPool(NodeSource src, Sym x, PoolSpec spec) {
    return pool(src, x, "avg", spec);
  }

  private Sym pool(NodeSource src, Sym x, String type, PoolSpec spec) {
    return op(
        src,
        "Pooling",
        src.node(),
        attrs(
            "pool_type",
            type,
            "kernel",
            tuple(new int[] {spec.kernelHeight(), spec.kernelWidth()}),
            "stride",
            tuple(new int[] {spec.strideHeight(), spec.strideWidth()}),
            "pad",
            tuple(new int[] {spec.padHeight(), spec.padWidth()}),
            "pooling_convention",
            "valid"),
        List.of("data"),
        List.of(x));
  }

  /**
   * Average over every position of each channel ({@code Pooling}, {@code global_pool = True},
   * {@code pool_type = avg}): {@code [N, C, ...]} to {@code [N, C, 1, ...]}.
   */
  public Sym globalAvgPool(NodeSource src, Sym x) {
    return op(
        src,
        "Pooling",
        src.node(),
        attrs("pool_type", "avg", "global_pool", true, "pooling_convention", "valid"),
        List.of("data"),
        List.of(x));
  }

  /**
   * A new shape for the same values ({@code Reshape}); {@code shape} may hold MXNet's special
   * values 0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 (split in two).
   */
  public Sym reshape(NodeSource src, Sym x, int... shape) {
    Sym out =
        op(src, "Reshape", src.node(), attrs("shape", tuple(shape)), List.of("data"), List.of(x));
    reshapes.add(new ReshapeGuard.Check(src, outputName(x), outputName(out)));
    return out;
  }

  /** The name of {@code s}'s output in MXNet's list of internal outputs. */
  private String outputName(Sym s) {
    return sources.containsKey(s.name()) && !isVariable(s) ? s.name() + "_output" : s.name();
  }

  private boolean isVariable(Sym s) {
    return inputs.stream().anyMatch(i -> i.name().equals(s.name()))
        || paramKinds.containsKey(s.name())
        || auxKinds.containsKey(s.name())
        || states.stream().anyMatch(st -> st.name().equals(s.name()));
  }

  /**
   * Dropout ({@code Dropout}, {@code p = rate}): active only in training-mode forward passes, where
   * it zeroes values with probability {@code rate} and scales the rest by {@code 1 / (1 - rate)}.
   */
  public Sym dropout(NodeSource src, Sym x, double rate) {
    if (!(rate >= 0 && rate < 1)) {
      throw new IllegalArgumentException(
          src
              + ": a dropout rate must be in [0, 1) (the "
              + "probability of dropping a value in training), got "
              + rate);
    }
    return op(src, "Dropout", src.node(), attrs("p", rate), List.of("data"), List.of(x));
  }

  /**
   * Batch normalisation ({@code BatchNorm}, {@code fix_gamma = False}) along {@code axis}:
   * parameters {@code <node>_gamma} (starting at 1) and {@code <node>_beta}, auxiliary states
   * {@code <node>_moving_mean} (starting at 0) and {@code <node>_moving_var} (starting at 1).
   */
  public Sym batchNorm(NodeSource src, Sym x, BatchNormSpec spec) {
    double eps = spec.eps();
    double momentum = spec.momentum();
    int axis = spec.axis();
    String node = src.node();
    Sym gamma = param(node, "gamma", ParamSpec.Kind.GAMMA);
    Sym beta = param(node, "beta", ParamSpec.Kind.BIAS);
    Sym mean = aux(node, "moving_mean", AuxSpec.Kind.MOVING_MEAN);
    Sym var = aux(node, "moving_var", AuxSpec.Kind.MOVING_VAR);
    return op(
        src,
        "BatchNorm",
        node,
        attrs("eps", eps, "momentum", momentum, "axis", axis, "fix_gamma", false),
        List.of("data", "gamma", "beta", "moving_mean", "moving_var"),
        List.of(x, gamma, beta, mean, var));
  }

  /**
   * Layer normalisation ({@code LayerNorm}) along {@code axis}: parameters {@code <node>_gamma}
   * (starting at 1) and {@code <node>_beta}.
   */
  public Sym layerNorm(NodeSource src, Sym x, LayerNormSpec spec) {
    int axis = spec.axis();
    double eps = spec.eps();
    String node = src.node();
    Sym gamma = param(node, "gamma", ParamSpec.Kind.GAMMA);
    Sym beta = param(node, "beta", ParamSpec.Kind.BIAS);
    return op(
        src,
        "LayerNorm",
        node,
        attrs("axis", axis, "eps", eps),
        List.of("data", "gamma", "beta"),
        List.of(x, gamma, beta));
  }

  /**
   * A lookup table ({@code Embedding}): each value of {@code x} is a row index into {@code
   * <node>_weight} {@code [inputDim, outputDim]}.
   */
  public Sym embedding(NodeSource src, Sym x, EmbeddingSpec spec) {
    int inputDim = spec.inputDim();
    int outputDim = spec.outputDim();
    String node = src.node();
    Sym indices = op(src, "BlockGrad", node + "_indices", attrs(), List.of("data"), List.of(x));
    Sym weight = param(node, "weight", ParamSpec.Kind.WEIGHT);
    return op(
        src,
        "Embedding",
        node,
        attrs("input_dim", inputDim, "output_dim", outputDim),
        List.of("data", "weight"),
        List.of(indices, weight));
  }

  /**
   * A recurrent layer over a batch-first sequence {@code [N, T, in]} (whose shape the processor
   * inferred as {@code inputShape}): MXNet's fused {@code RNN} operator, which is time-major, so
   * the sequence is swapped to {@code [T, N, in]} and back. One parameter, {@code
   * <node>_parameters}, the flat vector of {@link RnnLayout}; state arguments {@code <node>_state}
   * (and an LSTM's {@code <node>_state_cell}), {@code [layers·dirs, N, units]} (see {@link
   * StateSpec}). Output {@code [N, T, units·dirs]}, or with {@code returnSequences} off the final
   * hidden state of the last layer, {@code [N, units·dirs]} (forward direction: its output at step
   * T-1; reverse direction: at step 0).
   *
   * <p>With dropout between stacked layers, each layer is its own one-layer operator reading its
   * runs of the flat vector, with {@code Dropout} between them: oneDNN's fused kernel ignores the
   * operator's {@code p} in MXNet 1.9.1.
   */
  public Sym rnn(NodeSource src, Sym x, Shape inputShape, RnnSpec spec) {
    checkOpen();
    if (inputShape.rank() != 3 || inputShape.dim(2) < 1) {
      throw new ModelException(
          src,
          src
              + ": a recurrent layer needs a [BATCH, steps, features] "
              + "input, got "
              + inputShape,
          null);
    }
    String node = src.node();
    for (String variable : new String[] {"MXNET_MKLDNN_ENABLED", "MXNET_USE_MKLDNN_RNN"}) {
      if ("0".equals(System.getenv(variable))) {
        throw new ModelException(
            src,
            src
                + ": recurrent layers need MXNet's oneDNN RNN kernel, "
                + "but "
                + variable
                + "=0 selects the native one, whose parameter gradients with "
                + "grad_req add are wrong in MXNet 1.9.1 (apache/mxnet#17898; with "
                + "MXNET_MKLDNN_ENABLED=0 alone the operator reads a state of the wrong kind); unset "
                + variable,
            null);
      }
    }
    RnnLayout layout;
    try {
      layout = spec.layout(inputShape.dim(2));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(src + ": " + e.getMessage(), e);
    }
    boolean lstm = spec.mode() == RnnLayout.Mode.LSTM;
    String paramName = node + "_parameters";
    paramKinds.put(paramName, ParamSpec.Kind.RECURRENT);
    paramNodes.put(paramName, node);
    knownShapes.put(paramName, Shape.of(Math.toIntExact(layout.size())));
    rnnLayouts.put(paramName, layout);
    Sym params = variable(paramName);
    int batch = inputShape.dim(0) > 0 ? inputShape.dim(0) : Shape.BATCH;
    Sym state = stateVariable(node + "_state", node, false, layout, batch);
    Sym cell = lstm ? stateVariable(node + "_state_cell", node, true, layout, batch) : null;
    Sym data =
        op(
            src,
            "SwapAxis",
            node + "_tnc",
            attrs("dim1", 0, "dim2", 1),
            List.of("data"),
            List.of(x));
    Sym out;
    Sym hy;
    Sym cy = null;
    if (spec.layers() == 1 || spec.dropout() == 0) {
      Sym rnn = rnnOp(src, node, layout, data, params, state, cell);
      out = output(rnn, 0);
      hy = output(rnn, 1);
      cy = lstm ? output(rnn, 2) : null;
    } else {
      int dirs = layout.directions();
      List<Sym> hys = new ArrayList<>();
      List<Sym> cys = new ArrayList<>();
      Sym in = data;
      for (int l = 0; l < spec.layers(); l++) {
        String name = node + "_l" + l;
        long[] runs = layout.layerRuns(l);
        Sym w = slice(src, name + "_weights", params, 0, runs[0], runs[0] + runs[1]);
        Sym b = slice(src, name + "_biases", params, 0, runs[2], runs[2] + runs[3]);
        Sym p =
            op(
                src,
                "Concat",
                name + "_parameters",
                attrs("num_args", 2, "dim", 0),
                null,
                List.of(w, b));
        Sym h0 = slice(src, name + "_state", state, 0, (long) l * dirs, (long) (l + 1) * dirs);
        Sym c0 =
            lstm
                ? slice(src, name + "_state_cell", cell, 0, (long) l * dirs, (long) (l + 1) * dirs)
                : null;
        Sym rnn = rnnOp(src, name, layout.layer(l), in, p, h0, c0);
        in = output(rnn, 0);
        hys.add(output(rnn, 1));
        if (lstm) {
          cys.add(output(rnn, 2));
        }
        if (l < spec.layers() - 1) {
          in =
              op(
                  src,
                  "Dropout",
                  name + "_dropout",
                  attrs("p", spec.dropout()),
                  List.of("data"),
                  List.of(in));
        }
      }
      out = in;
      hy =
          op(
              src,
              "Concat",
              node + "_state_output",
              attrs("num_args", hys.size(), "dim", 0),
              null,
              hys);
      cy =
          lstm
              ? op(
                  src,
                  "Concat",
                  node + "_statecell_output",
                  attrs("num_args", cys.size(), "dim", 0),
                  null,
                  cys)
              : null;
    }
    if (spec.stateful()) {
      addStateOutput(src, node + "_state", hy);
      if (lstm) {
        addStateOutput(src, node + "_state_cell", cy);
      }
    }
    if (spec.returnSequences()) {
      return op(
          src,
          "SwapAxis",
          node + "_ntc",
          attrs("dim1", 0, "dim2", 1),
          List.of("data"),
          List.of(out));
    }
    int dirs = layout.directions();
    int rows = layout.layers() * dirs;
    Sym last = slice(src, node + "_final", hy, 0, rows - dirs, rows);
    Sym batchFirst =
        op(
            src,
            "SwapAxis",
            node + "_final_ndh",
            attrs("dim1", 0, "dim2", 1),
            List.of("data"),
            List.of(last));
    return op(
        src,
        "Reshape",
        node + "_last",
        attrs("shape", "(0,-1)"),
        List.of("data"),
        List.of(batchFirst));
  }

  private Sym rnnOp(
      NodeSource src, String name, RnnLayout layout, Sym data, Sym params, Sym state, Sym cell) {
    List<String> keys = new ArrayList<>(List.of("data", "parameters", "state"));
    List<Sym> args = new ArrayList<>(List.of(data, params, state));
    if (cell != null) {
      keys.add("state_cell");
      args.add(cell);
    }
    return op(
        src,
        "RNN",
        name,
        attrs(
            "mode",
            layout.mode().mxnetName(),
            "state_size",
            layout.units(),
            "num_layers",
            layout.layers(),
            "bidirectional",
            layout.bidirectional(),
            "p",
            0.0,
            "state_outputs",
            true),
        keys,
        args);
  }

  private Sym slice(NodeSource src, String name, Sym x, int axis, long begin, long end) {
    return op(
        src,
        "slice_axis",
        name,
        attrs("axis", axis, "begin", begin, "end", end),
        List.of("data"),
        List.of(x));
  }

  private Sym stateVariable(String name, String node, boolean cell, RnnLayout layout, int batch) {
    states.add(new StateSpec(name, node, cell, layout.stateShape(batch), false, -1, batch));
    knownShapes.put(name, layout.stateShape(batch > 0 ? batch : 1));
    return variable(name);
  }

  /** Marks {@code name}'s state stateful: its final value {@code last} becomes a graph output. */
  private void addStateOutput(NodeSource src, String name, Sym last) {
    Sym blocked = op(src, "BlockGrad", name + "_carry", attrs(), List.of("data"), List.of(last));
    for (int i = 0; i < states.size(); i++) {
      StateSpec s = states.get(i);
      if (s.name().equals(name)) {
        states.set(
            i,
            new StateSpec(
                s.name(), s.node(), s.cell(), s.pattern(), true, stateOutputs.size(), s.batch()));
      }
    }
    stateOutputs.add(blocked);
  }

  /** Output {@code index} of the multi-output symbol {@code s}, as a symbol of its own. */
  private Sym output(Sym s, int index) {
    PointerByReference ref = new PointerByReference();
    Mx.check(
        Mx.api().MXSymbolGetOutput(((SymNode) s).handle(), index, ref),
        "MXSymbolGetOutput(" + s.name() + ", " + index + ")");
    handles.add(ref.getValue());
    return new SymNode(s.name() + "_output" + index, ref.getValue());
  }

  /**
   * Freezes every parameter of the node declared at {@code src} (a {@code @Frozen} node): the graph
   * reports them through {@link Graph#isFrozen}, executors bind them without gradients and updates
   * skip them. Call it before or after the node's layer method.
   */
  public void freeze(NodeSource src) {
    checkOpen();
    frozenNodes.add(src.node());
  }

  /**
   * Groups {@code outputs} into the model's symbol and returns the finished graph; MXNet's shape
   * inference runs once here (with every {@code BATCH} set to 1) to learn the parameter shapes, so
   * a shape error that the compiler could not see surfaces now, before any binding, naming its
   * node.
   */
  public Graph build(List<Sym> outputs) {
    checkOpen();
    built = true;
    Pointer group = null;
    try {
      Pointer[] outs = new Pointer[outputs.size() + stateOutputs.size()];
      List<String> outputNames = new ArrayList<>();
      for (int i = 0; i < outputs.size(); i++) {
        outs[i] = ((SymNode) outputs.get(i)).handle();
        outputNames.add(outputs.get(i).name());
      }
      for (int i = 0; i < stateOutputs.size(); i++) {
        outs[outputs.size() + i] = ((SymNode) stateOutputs.get(i)).handle();
      }
      PointerByReference ref = new PointerByReference();
      Mx.check(Mx.api().MXSymbolCreateGroup(outs.length, outs, ref), "MXSymbolCreateGroup");
      group = ref.getValue();
      List<String> arguments = listArguments(group);
      List<String> auxNames = listAuxiliaryStates(group);
      SourceMap sourceMap = new SourceMap(model, sources);
      Map<String, Shape> auxShapes = new LinkedHashMap<>();
      Map<String, Shape> shapes =
          inferArgumentShapes(group, arguments, sourceMap, auxNames, auxShapes);
      List<ParamSpec> params = new ArrayList<>();
      Set<String> frozen = new HashSet<>();
      for (String arg : arguments) {
        ParamSpec.Kind kind = paramKinds.get(arg);
        if (kind != null) {
          params.add(new ParamSpec(arg, shapes.get(arg), paramNodes.get(arg), kind));
          if (frozenNodes.contains(paramNodes.get(arg))) {
            frozen.add(arg);
          }
        }
      }
      List<AuxSpec> auxStates = new ArrayList<>();
      for (String aux : auxNames) {
        AuxSpec.Kind kind = auxKinds.get(aux);
        if (kind == null) {
          throw new IllegalStateException(
              model + ": MXNet lists auxiliary state '" + aux + "', which no Kiln layer made");
        }
        auxStates.add(new AuxSpec(aux, auxShapes.get(aux), auxNodes.get(aux), kind));
      }
      boolean unrolled = !unrolledCells.isEmpty();
      Graph graph =
          new Graph(
              model,
              group,
              inputs,
              outputNames,
              params,
              labels,
              arguments,
              sourceMap,
              auxStates,
              frozen,
              reshapes,
              states,
              rnnLayouts,
              unrolled ? steps : 0,
              unrolledCells,
              unrolled ? rebuild : null);
      group = null;
      Set<String> reordered = new LinkedHashSet<>(reorderedWeights);
      reordered.retainAll(arguments);
      graph.reorderedWeights(reordered);
      return graph;
    } finally {
      if (group != null) {
        Mx.api().MXSymbolFree(group);
      }
      freeHandles();
    }
  }

  /**
   * The shapes Kiln knows of the graph's variables: the inputs with every {@code BATCH} 1, the
   * parameters and states it shaped itself. Labels are left for MXNet to infer from what they are
   * compared with.
   */
  private Map<String, int[]> knownShapes() {
    // Every BATCH is 1 here, and so is every STEPS unless cells are unrolled over a number of
    // steps; labels are left for MXNet to infer from what they are compared with.
    Map<String, int[]> known = new LinkedHashMap<>();
    for (InputSpec in : inputs) {
      known.put(
          in.name(),
          Arrays.stream(in.shape().dims())
              .map(d -> d == Shape.STEPS && steps > 0 ? steps : d < 0 ? 1 : d)
              .toArray());
    }
    knownShapes.forEach((name, shape) -> known.put(name, shape.dims()));
    return known;
  }

  private Map<String, Shape> inferArgumentShapes(
      Pointer symbol,
      List<String> arguments,
      SourceMap sourceMap,
      List<String> auxNames,
      Map<String, Shape> auxShapes) {
    Map<String, int[]> known = knownShapes();
    for (AxisCheck c : axisChecks) {
      c.check(this, known);
    }
    ShapeInference inferred;
    try {
      inferred = ShapeInference.infer(symbol, known);
    } catch (MxException e) {
      throw sourceMap.trace("inferring shapes while building the graph", e);
    }
    Map<String, Shape> shapes = new LinkedHashMap<>();
    for (int i = 0; i < inferred.arguments().length; i++) {
      shapes.put(arguments.get(i), complete(inferred.arguments()[i], "argument", arguments.get(i)));
    }
    for (int i = 0; i < inferred.auxiliary().length; i++) {
      auxShapes.put(
          auxNames.get(i), complete(inferred.auxiliary()[i], "auxiliary state", auxNames.get(i)));
    }
    return shapes;
  }

  private Shape complete(int[] dims, String what, String name) {
    if (dims.length == 0 || Arrays.stream(dims).anyMatch(d -> d <= 0)) {
      String node = paramNodes.containsKey(name) ? paramNodes.get(name) : auxNodes.get(name);
      NodeSource src = node == null ? null : sources.get(node);
      throw new ModelException(
          src,
          (src == null ? model : src.toString())
              + ": MXNet could not "
              + "infer the shape of "
              + what
              + " '"
              + name
              + "' (got "
              + Arrays.toString(dims)
              + "); nothing in the graph fixes it",
          null);
    }
    return Shape.of(dims);
  }

  /**
   * The ranks of what {@code xs} compute, inferred from {@code known}; null when MXNet cannot infer
   * them (an error the graph's own inference then reports, naming its node).
   */
  int[] ranks(List<Sym> xs, Map<String, int[]> known) {
    Pointer[] handles = xs.stream().map(x -> ((SymNode) x).handle()).toArray(Pointer[]::new);
    PointerByReference ref = new PointerByReference();
    Mx.check(Mx.api().MXSymbolCreateGroup(handles.length, handles, ref), "MXSymbolCreateGroup");
    Pointer group = ref.getValue();
    try {
      Map<String, int[]> used = new LinkedHashMap<>();
      for (String arg : listArguments(group)) {
        if (known.containsKey(arg)) {
          used.put(arg, known.get(arg));
        }
      }
      int[][] outputs = ShapeInference.infer(group, used).outputs();
      int[] ranks = new int[outputs.length];
      for (int i = 0; i < outputs.length; i++) {
        if (outputs[i].length == 0) {
          return null;
        }
        ranks[i] = outputs[i].length;
      }
      return ranks;
    } catch (MxException e) {
      return null;
    } finally {
      Mx.api().MXSymbolFree(group);
    }
  }

  private static List<String> listAuxiliaryStates(Pointer symbol) {
    IntByReference size = new IntByReference();
    PointerByReference names = new PointerByReference();
    Mx.check(
        Mx.api().MXSymbolListAuxiliaryStates(symbol, size, names), "MXSymbolListAuxiliaryStates");
    return List.of(Mx.strings(names, size.getValue()));
  }

  private static List<String> listArguments(Pointer symbol) {
    IntByReference size = new IntByReference();
    PointerByReference names = new PointerByReference();
    Mx.check(Mx.api().MXSymbolListArguments(symbol, size, names), "MXSymbolListArguments");
    return List.of(Mx.strings(names, size.getValue()));
  }

  private Sym activate(NodeSource src, Sym x, Act activation) {
    return op(
        src,
        "Activation",
        src.node() + "_" + activation.mxnetName(),
        attrs("act_type", activation.mxnetName()),
        List.of("data"),
        List.of(x));
  }

  private Sym param(String node, String role, ParamSpec.Kind kind) {
    String name = node + "_" + role;
    paramKinds.put(name, kind);
    paramNodes.put(name, node);
    return variable(name);
  }

  private Sym aux(String node, String role, AuxSpec.Kind kind) {
    String name = node + "_" + role;
    auxKinds.put(name, kind);
    auxNodes.put(name, node);
    return variable(name);
  }

  /** {@code (5,5)}: an MXNet tuple attribute. */
  private static String tuple(int[] values) {
    String inner =
        Arrays.stream(values).mapToObj(Integer::toString).collect(Collectors.joining(","));
    return "(" + inner + (values.length == 1 ? ",)" : ")");
  }

  private Sym variable(String name) {
    checkOpen();
    PointerByReference ref = new PointerByReference();
    Mx.check(Mx.api().MXSymbolCreateVariable(name, ref), "MXSymbolCreateVariable(" + name + ")");
    handles.add(ref.getValue());
    variables.add(name);
    return new SymNode(name, ref.getValue());
  }

  /**
   * Creates operator {@code op} named {@code name} with {@code attrs} and composes it over {@code
   * args} (by keyword when {@code keys} is given, else by position).
   */
  private Sym op(
      NodeSource src, String op, String name, String[][] attrs, List<String> keys, List<Sym> args) {
    checkOpen();
    sources.put(name, src);
    noteReorderedWeight(op, keys, args);
    PointerByReference ref = new PointerByReference();
    try {
      Mx.check(
          Mx.api().MXSymbolCreateAtomicSymbol(Mx.op(op), attrs[0].length, attrs[0], attrs[1], ref),
          "MXSymbolCreateAtomicSymbol(" + op + ")");
      Pointer handle = ref.getValue();
      handles.add(handle);
      Pointer[] argHandles = new Pointer[args.size()];
      for (int i = 0; i < argHandles.length; i++) {
        argHandles[i] = ((SymNode) args.get(i)).handle();
      }
      String[] keyArray = keys == null ? null : keys.toArray(new String[0]);
      Mx.check(
          Mx.api().MXSymbolCompose(handle, name, argHandles.length, keyArray, argHandles),
          "MXSymbolCompose(" + name + ")");
      return new SymNode(name, handle, src);
    } catch (MxException e) {
      throw new SourceMap(model, Map.of(name, src)).trace("building the graph", e);
    }
  }

  /**
   * Records the variable that operator {@code op} reads as the weight oneDNN may reorder in place
   * ({@link SymbolJson#REORDERING_INPUTS}): argument 1 by position, or the one keyed {@code
   * weight}. {@link Graph#reorderedWeights()} gives them without parsing the symbol's JSON.
   */
  private void noteReorderedWeight(String op, List<String> keys, List<Sym> args) {
    Integer index = SymbolJson.REORDERING_INPUTS.get(op);
    if (index == null) {
      return;
    }
    int at = keys == null ? index : keys.indexOf("weight");
    if (at >= 0 && at < args.size() && variables.contains(args.get(at).name())) {
      reorderedWeights.add(args.get(at).name());
    }
  }

  /** Attribute keys and values as MXNet strings; booleans as {@code True}/{@code False}. */
  private static String[][] attrs(Object... keyValues) {
    int n = keyValues.length / 2;
    String[] keys = new String[n];
    String[] vals = new String[n];
    for (int i = 0; i < n; i++) {
      keys[i] = (String) keyValues[2 * i];
      Object v = keyValues[2 * i + 1];
      vals[i] = v instanceof Boolean b ? (b ? "True" : "False") : String.valueOf(v);
    }
    return new String[][] {keys, vals};
  }

  private void checkOpen() {
    if (built) {
      throw new IllegalStateException(
          model
              + ": this GraphBuilder has built its graph already; "
              + "a builder builds one graph, so make a new one");
    }
  }

  /**
   * Frees every symbol handle the builder still owns: all of them when the graph was never built (a
   * node method threw), none after {@link #build}. Idempotent.
   */
  @Override
  public void close() {
    built = true;
    freeHandles();
  }

  private void freeHandles() {
    for (Pointer h : handles) {
      Mx.api().MXSymbolFree(h);
    }
    handles.clear();
  }
}
