package dev.kiln.runtime.graph;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;
import dev.kiln.names.AuxRole;
import dev.kiln.names.NodeNames;
import dev.kiln.names.ParamRole;
import dev.kiln.names.StateRole;
import dev.kiln.ops.Activations;
import dev.kiln.ops.LayerOp;
import dev.kiln.ops.RnnLayout;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.ops.emit.RecurrentScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.RuleError;
import dev.kiln.ops.rule.TShape;
import dev.kiln.runtime.graph.trace.CustomLayers;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

/**
 * Builds one model's MXNet symbol, node by node. Generated {@code XGraph} classes call one method
 * per declared node: {@link #input} for an input, {@link #node} with the layer's {@link LayerOp}
 * for a built-in layer ({@code builder.node(HIDDEN_SOURCE, DenseOp.units(128), pixels)}), {@link
 * #custom} or {@link #cell} for a custom layer. Every node names the MXNet operators it emits after
 * itself ({@code hidden}, {@code hidden_relu}) and its parameters {@code <node>_<role>} (see {@code
 * dev.kiln.names}), and the builder remembers where the node was declared so that errors can point
 * back to it.
 *
 * <p>The builder owns every symbol handle it makes until {@link #build} groups the outputs into the
 * {@link Graph}'s one symbol and frees the rest; {@link #close()} frees whatever a failed build
 * left, so generated code builds inside try-with-resources. A builder is used once.
 */
public final class GraphBuilder implements AutoCloseable {
  private final String model;
  private final boolean training;
  private final Declarations d = new Declarations();
  private final SymbolArena arena;
  private int steps;
  private IntFunction<Graph> rebuild;
  private boolean built;

  /** A builder for the model named {@code model} (its interface's simple name). */
  public GraphBuilder(String model) {
    this(model, false);
  }

  /**
   * A builder for {@code model}; with {@code training}, the graph is the one its trainer runs: a
   * softmax made as a classifier's head ({@link dev.kiln.ops.SoftmaxOp#classifierHead()}) emits
   * MXNet's {@code SoftmaxOutput} (softmax with cross-entropy loss) instead of a plain softmax, and
   * a loss head ({@link dev.kiln.ops.LossOp}) its training loss against a label variable.
   */
  public GraphBuilder(String model, boolean training) {
    this.model = model;
    this.training = training;
    this.arena = new SymbolArena(model, d.sources);
  }

  /**
   * A builder for {@code model} (with {@code training} as above) that unrolls every custom
   * recurrent cell whose sequence has {@code Dim.STEPS} steps over {@code steps} steps (see {@link
   * #cell}), and gives the graph {@code rebuild}, which builds the same model for any number of
   * steps (the generated model's {@code graph(training, steps)}), so that an executor bound for
   * another length gets a graph of its own ({@link Graph#unroll}). Shape inference in {@link
   * #build} gives every {@code STEPS} dimension {@code steps}.
   *
   * @throws IllegalArgumentException if {@code steps} is less than 1
   */
  public GraphBuilder(String model, boolean training, int steps, IntFunction<Graph> rebuild) {
    this(model, training);
    if (steps < 1) {
      throw new IllegalArgumentException(
          model + ": a cell is unrolled over at least one step, " + "got " + steps);
    }
    this.steps = steps;
    this.rebuild = java.util.Objects.requireNonNull(rebuild, "rebuild");
  }

  /** A model input: an MXNet variable named after the node. */
  public Sym input(NodeSource src, Shape shape) {
    checkOpen();
    d.sources.put(src.node(), src);
    d.inputs.add(new InputSpec(src.node(), shape));
    SymNode v = arena.variable(src.node());
    return new SymNode(v.name(), v.handle(), src);
  }

  /**
   * A node of a built-in layer: {@code op}'s MXNet operators over {@code inputs}, named after the
   * node declared at {@code src}, with the parameters, auxiliary states and checks it declares.
   *
   * @throws IllegalArgumentException if {@code op} takes another number of inputs, or one of its
   *     attributes breaks its rule (worded as the processor's compile-time error for it)
   */
  public Sym node(NodeSource src, LayerOp op, Sym... inputs) {
    checkOpen();
    boolean fits = op.variadic() ? inputs.length >= op.arity() : inputs.length == op.arity();
    if (!fits) {
      throw new IllegalArgumentException(
          src
              + ": "
              + op.getClass().getSimpleName()
              + " takes "
              + (op.variadic() ? "at least " : "")
              + op.arity()
              + " input"
              + (op.arity() == 1 ? "" : "s")
              + ", got "
              + inputs.length);
    }
    try {
      op.checkAttributes(new AttributeSite(src.node(), src.declaration(), src.annotation()));
    } catch (RuleError e) {
      throw new IllegalArgumentException(e.message.format(e.args), e);
    }
    return op.build(new Scope(src), List.of(inputs));
  }

  /**
   * A parameter of a custom layer used by node {@code src}: the variable {@code <node>_<name>} of
   * the given shape, initialised by the model's initialiser or, with {@code zeros}, to zero.
   */
  public Sym customParam(NodeSource src, String name, Shape shape, boolean zeros) {
    return customParam(src, name, shape, null, zeros ? ParamInit.ZEROS : ParamInit.MODEL, 0);
  }

  /**
   * A parameter of a custom layer used by node {@code src}: the variable {@code <node>_<name>} of
   * the given shape, declared {@code declared} (its {@code @Param} shape pattern, whose names the
   * trace checks broadcasts by), starting as {@code init} says (a {@code CONSTANT} at 0).
   */
  public Sym customParam(
      NodeSource src, String name, Shape shape, List<String> declared, ParamInit init) {
    return customParam(src, name, shape, declared, init, 0);
  }

  /**
   * A parameter of a custom layer used by node {@code src}: the variable {@code <node>_<name>} of
   * the given shape, declared {@code declared} (its {@code @Param} shape pattern, or null),
   * starting as {@code init} says: drawn by the model's initialiser ({@code MODEL}), or every
   * element 0, 1 or {@code value} ({@code CONSTANT}; {@code value} is ignored otherwise).
   *
   * @throws IllegalArgumentException if the shape is not complete, or {@code init} is {@code
   *     CONSTANT} and {@code value} is not a finite float
   */
  public Sym customParam(
      NodeSource src,
      String name,
      Shape shape,
      List<String> declared,
      ParamInit init,
      double value) {
    checkOpen();
    String full = NodeNames.of(src.node(), name);
    if (!shape.isComplete()) {
      throw new IllegalArgumentException(
          src
              + ": custom parameter "
              + full
              + " needs a "
              + "complete shape (each dimension a size: it is allocated once, for every batch), got "
              + shape);
    }
    switch (init) {
      case MODEL -> d.param(full, src.node(), ParamSpec.Kind.WEIGHT);
      case ZEROS -> d.param(full, src.node(), ParamSpec.Kind.BIAS);
      case ONES -> d.param(full, src.node(), ParamSpec.Kind.GAMMA);
      case CONSTANT -> {
        if (!Float.isFinite((float) value)) {
          throw new IllegalArgumentException(
              src
                  + ": custom parameter "
                  + full
                  + " starts at "
                  + value
                  + ", which is not a finite float");
        }
        d.constantParam(full, src.node(), (float) value);
      }
    }
    d.knownShapes.put(full, shape);
    return CustomLayers.param(arena.variable(full), shape, declared);
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
      BiFunction<Sym, List<Sym>, Sym> forward) {
    return custom(src, layer, null, inputShape, outputShape, input, params, forward);
  }

  /**
   * As {@link #custom(NodeSource, String, Shape, Shape, Sym, List, BiFunction)}, with the layer's
   * input pattern {@code inputPattern} ({@code @Layer(input = ...)}), whose dimension names, with
   * those of each parameter's {@code @Param} shape, the trace carries through the body: an
   * operation on operands of different rank that lines up two axes of different names only because
   * their sizes agree (a {@code [channels]} parameter against the {@code w} of {@code [BATCH,
   * channels, h, w]}) is refused, with the declaration that fixes it.
   */
  public Sym custom(
      NodeSource src,
      String layer,
      List<String> inputPattern,
      Shape inputShape,
      Shape outputShape,
      Sym input,
      List<Sym> params,
      BiFunction<Sym, List<Sym>, Sym> forward) {
    checkOpen();
    return customLayers()
        .custom(src, layer, inputPattern, inputShape, outputShape, input, params, forward);
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
    return cell(src, layer, null, null, inputShape, outputShape, input, params, step);
  }

  /**
   * As {@link #cell(NodeSource, String, Shape, Shape, Sym, List, CellStep)}, with the layer's input
   * (one step's) and state patterns, whose dimension names the trace checks broadcasts by, as
   * {@link #custom(NodeSource, String, List, Shape, Shape, Sym, List, BiFunction)} does.
   */
  public Sym cell(
      NodeSource src,
      String layer,
      List<String> inputPattern,
      List<String> statePattern,
      Shape inputShape,
      Shape outputShape,
      Sym input,
      List<Sym> params,
      CellStep step) {
    checkOpen();
    return customLayers()
        .cell(src, layer, inputPattern, statePattern, inputShape, outputShape, input, params, step);
  }

  /** Custom layers and cells are traced (package {@code trace}) into this builder's arena. */
  private CustomLayers customLayers() {
    return new CustomLayers(arena, steps, this::cellState);
  }

  /**
   * Declares a custom cell's initial state {@code spec}, {@code known} for a batch of 1, noting the
   * cell among those unrolled over {@code Dim.STEPS} when it is {@code unrolled}.
   */
  private SymNode cellState(StateSpec spec, Shape known, boolean unrolled) {
    if (unrolled) {
      d.unrolledCells.add(spec.node());
    }
    d.states.add(spec);
    d.knownShapes.put(spec.name(), known);
    return arena.variable(spec.name());
  }

  /**
   * Declares the model's free dimensions and what it needs of their sizes: the graph checks them
   * before an executor is bound ({@link Graph#dimensions()}), and shape inference while building
   * runs at the least sizes they allow. Generated code calls it first, for a model with
   * {@code @FreeDim} constants.
   */
  public void dimensions(Dimensions dimensions) {
    checkOpen();
    d.dimensions = dimensions;
  }

  /**
   * Freezes every parameter of the node declared at {@code src} (a {@code @Frozen} node): the graph
   * reports them through {@link Graph#isFrozen}, executors bind them without gradients and updates
   * skip them. Call it before or after the node's layer method.
   */
  public void freeze(NodeSource src) {
    checkOpen();
    d.frozenNodes.add(src.node());
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
    return new GraphAssembly(model, d, arena, steps).assemble(outputs, rebuild);
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
    arena.freeAll();
  }

  /** What one built-in node's op sees of this builder. */
  private final class Scope implements NodeScope, RecurrentScope {
    private final NodeSource src;

    Scope(NodeSource src) {
      this.src = src;
    }

    @Override
    public NodeSource source() {
      return src;
    }

    @Override
    public boolean training() {
      return training;
    }

    @Override
    public Sym param(ParamRole role) {
      String name = src.name(role.role());
      d.param(name, node(), kind(role));
      return arena.variable(name);
    }

    @Override
    public Sym param(ParamRole role, TShape shape) {
      d.knownShapes.put(src.name(role.role()), Shape.of(shape));
      return param(role);
    }

    private ParamSpec.Kind kind(ParamRole role) {
      return switch (role) {
        case WEIGHT, QUERY_WEIGHT, KEY_WEIGHT, VALUE_WEIGHT, OUTPUT_WEIGHT -> ParamSpec.Kind.WEIGHT;
        case BIAS, BETA, QUERY_BIAS, KEY_BIAS, VALUE_BIAS, OUTPUT_BIAS -> ParamSpec.Kind.BIAS;
        case GAMMA -> ParamSpec.Kind.GAMMA;
        case PARAMETERS -> ParamSpec.Kind.RECURRENT;
        case ALPHA -> ParamSpec.Kind.SLOPE;
        case VALUE -> ParamSpec.Kind.BIAS;
      };
    }

    @Override
    public Sym aux(AuxRole role) {
      String name = src.name(role.role());
      d.aux(
          name,
          node(),
          switch (role) {
            case MOVING_MEAN -> AuxSpec.Kind.MOVING_MEAN;
            case MOVING_VAR -> AuxSpec.Kind.MOVING_VAR;
          });
      return arena.variable(name);
    }

    @Override
    public Sym op(String op, String name, Attrs attrs, List<String> keys, List<Sym> args) {
      return arena.op(src, op, name, attrs, keys, args);
    }

    @Override
    public Sym activate(Sym x, Act activation) {
      return Activations.apply(this, node() + "_" + activation.mxnetName(), x, activation);
    }

    @Override
    public Sym output(Sym s, int index) {
      return arena.output(s, index);
    }

    @Override
    public void checkAxis(String op, List<Sym> xs, int axis, boolean head) {
      d.axisChecks.add(new AxisCheck(src, op, xs, axis, head));
    }

    @Override
    public Sym label() {
      String name = NodeNames.label(node());
      d.labels.add(name);
      return arena.variable(name);
    }

    @Override
    public void checkReshape(Sym in, Sym out) {
      d.reshapes.add(new ReshapeGuard.Check(src, outputName(in), outputName(out)));
    }

    /** The name of {@code s}'s output in MXNet's list of internal outputs. */
    private String outputName(Sym s) {
      if (s instanceof SymNode n && n.handle() != null && !d.sources.containsKey(s.name())) {
        // One output of a multi-output operator (an RNN's sequence): MXNet names it itself.
        List<String> names = n.handle().outputs();
        if (names.size() == 1) {
          return names.get(0);
        }
      }
      return d.sources.containsKey(s.name()) && !d.isVariable(s.name())
          ? s.name() + "_output"
          : s.name();
    }

    @Override
    public RuntimeException refuse(String why) {
      return new ModelException(src, src + ": " + why, null);
    }

    @Override
    public RecurrentScope recurrent() {
      return this;
    }

    @Override
    public Sym parameters(RnnLayout layout) {
      String name = src.name(ParamRole.PARAMETERS.role());
      d.param(name, node(), ParamSpec.Kind.RECURRENT);
      d.knownShapes.put(name, Shape.of(Math.toIntExact(layout.size())));
      d.rnnLayouts.put(name, layout);
      return arena.variable(name);
    }

    @Override
    public Sym state(StateRole role, RnnLayout layout, int batch) {
      String name = role.of(node());
      d.states.add(
          new StateSpec(
              name,
              node(),
              role == StateRole.CELL,
              Shape.of(layout.stateShape(batch)),
              false,
              -1,
              batch));
      d.knownShapes.put(name, Shape.of(layout.stateShape(batch > 0 ? batch : 1)));
      return arena.variable(name);
    }

    @Override
    public void carry(StateRole role, Sym last) {
      String name = role.of(node());
      Sym blocked = op("BlockGrad", name + "_carry", Attrs.of(), List.of("data"), List.of(last));
      d.carry(name, blocked);
    }
  }
}
