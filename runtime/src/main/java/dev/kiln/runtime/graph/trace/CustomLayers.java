package dev.kiln.runtime.graph.trace;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.ModelException;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.graph.StateSpec;
import dev.kiln.runtime.graph.SymNode;
import dev.kiln.runtime.graph.SymbolArena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

/**
 * Custom layers and custom recurrent cells, traced while the graph is built: their forward bodies
 * run once (a cell's once per step) over symbols that know their shapes, so that every operation is
 * checked as it is made, and the result is checked against the layer's declared shapes.
 *
 * <p>The {@link GraphBuilder} is its only user: its {@code custom}, {@code cell} and {@code
 * customParam} hand their work here, and the operators a trace makes go into the builder's {@link
 * SymbolArena}.
 */
public final class CustomLayers {
  /**
   * Where a cell declares its initial state: the graph being built, which records the state for
   * shape inference and binding and makes its variable.
   */
  @FunctionalInterface
  public interface CellStates {
    /**
     * Declares the state argument {@code spec}, whose shape for a batch of 1 is {@code known}, of a
     * cell that is {@code unrolled} over the builder's number of {@code Dim.STEPS} steps (or over a
     * constant number), and returns its variable.
     */
    SymNode declare(StateSpec spec, Shape known, boolean unrolled);
  }

  private final SymbolArena arena;
  private final int steps;
  private final CellStates states;

  /**
   * Tracing into {@code arena} for a graph whose cells over {@code Dim.STEPS} are unrolled over
   * {@code steps} (0: none are), declaring each cell's state with {@code states}.
   */
  public CustomLayers(SymbolArena arena, int steps, CellStates states) {
    this.arena = arena;
    this.steps = steps;
    this.states = states;
  }

  /**
   * A custom layer's parameter {@code variable} of shape {@code shape}, declared {@code pattern}
   * (its {@code @Param} shape pattern, whose names the trace checks broadcasts by; null if
   * unknown), as the symbol generated code passes to {@link #custom} or {@link #cell}.
   */
  public static Sym param(SymNode variable, Shape shape, List<String> pattern) {
    return new TracedSym(variable, shape, null, variable.name(), named(pattern));
  }

  /**
   * A custom layer used by node {@code src}: traces {@code forward} once over {@code input} (whose
   * shape the processor inferred as {@code inputShape}), checking every operation's shapes as it
   * goes, then checks the result against the layer's declared output shape and names it after the
   * node. {@code params} are the layer's parameters, from {@link #param}, in the forward method's
   * order; {@code inputAxes}, the layer's input pattern (null if unknown), names the input's axes.
   */
  public Sym custom(
      NodeSource src,
      String layer,
      List<String> inputAxes,
      Shape inputShape,
      Shape outputShape,
      Sym input,
      List<Sym> params,
      BiFunction<Sym, List<Sym>, Sym> forward) {
    SymNode in = (SymNode) input;
    Trace trace = new Trace(arena, src, layer, src.node());
    TracedSym tracedInput = new TracedSym(in, inputShape, trace, comesFrom(in), named(inputAxes));
    List<Sym> traced = traced(params, trace);
    trace.start(tracedInput, traced);
    Sym result = forward.apply(tracedInput, traced);
    if (!(result instanceof TracedSym out) || (out.shape() == null)) {
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
    List<String> unread = trace.unreadParams();
    if (!unread.isEmpty()) {
      throw new ModelException(
          src,
          src
              + ": layer "
              + layer
              + " declares parameter"
              + (unread.size() == 1 ? " " : "s ")
              + String.join(", ", unread)
              + ", but its forward pass never reads "
              + (unread.size() == 1 ? "it" : "them")
              + " (MXNet cannot give a parameter that nothing reads a shape or a gradient): "
              + "compute with "
              + (unread.size() == 1 ? "it, or remove its @Param" : "them, or remove their @Params")
              + trace.steps(),
          null);
    }
    return arena.op(src, "identity", src.node(), Attrs.of(), List.of("data"), List.of(out));
  }

  /**
   * A custom recurrent cell used by node {@code src}, unrolled over a sequence {@code input} of
   * shape {@code inputShape}, {@code [N, steps, in...]}, where {@code steps} is a constant or
   * {@code Dim.STEPS}; over {@code STEPS}, the cell is unrolled over the number of steps the
   * builder was made for ({@link GraphBuilder#GraphBuilder(String, boolean, int, IntFunction)}), so
   * each number of steps has a graph of its own, all reading the same parameters. The sequence is
   * split into its steps ({@code SliceChannel} {@code <node>_steps}, the steps axis squeezed);
   * {@code step} is traced once per step, over that step's input and the previous step's state,
   * checking every operation's shapes as {@link #custom} does, and each step's result must have the
   * state shape (the declared {@code outputShape}, {@code [N, steps, state...]}, without the
   * steps). Every step reads the same parameters {@code params} (from {@link #param}); step {@code
   * t}'s operators are named {@code <node>_t<t>_<op><n>}. The first step's state is the state
   * argument {@code <node>_state}, bound to zeros (see {@link StateSpec}), and the node's output is
   * every step's state, stacked along axis 1 ({@code stack}, named after the node), so gradients
   * flow back through every step. {@code inputAxes} and {@code stateAxes}, the layer's input (one
   * step's) and state patterns, name the axes of each step's input and state (null if unknown).
   */
  public Sym cell(
      NodeSource src,
      String layer,
      List<String> inputAxes,
      List<String> stateAxes,
      Shape inputShape,
      Shape outputShape,
      Sym input,
      List<Sym> params,
      GraphBuilder.CellStep step) {
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
              + "graph for a number of steps with new GraphBuilder(model, training, steps, "
              + "rebuild), as the generated model does",
          null);
    }
    int steps = overSteps ? this.steps : declared;
    String node = src.node();
    Shape stepShape = withoutAxis(inputShape, 1);
    Shape stateShape = withoutAxis(outputShape, 1);
    String stateName = node + "_state";
    int batch = inputShape.dim(0) > 0 ? inputShape.dim(0) : Shape.BATCH;
    SymNode first =
        states.declare(
            new StateSpec(stateName, node, false, stateShape, false, -1, batch),
            stateShape.withBatch(1),
            overSteps);
    Sym split =
        arena.op(
            src,
            "SliceChannel",
            node + "_steps",
            Attrs.of("num_outputs", steps, "axis", 1, "squeeze_axis", true),
            List.of("data"),
            List.of(input));
    List<Sym> stepStates = new ArrayList<>();
    String sequence = comesFrom(input);
    SymNode state = first;
    for (int t = 0; t < steps; t++) {
      Trace trace = new Trace(arena, src, layer, node + "_t" + t);
      SymNode x = arena.output(split, t);
      List<Sym> traced = traced(params, trace);
      TracedSym stepInput =
          new TracedSym(x, stepShape, trace, sequence + " step " + t, named(inputAxes));
      trace.start(stepInput, traced);
      TracedSym previous = new TracedSym(state, stateShape, trace, state.name(), named(stateAxes));
      Sym next = step.apply(stepInput, previous, traced);
      if (!(next instanceof TracedSym out) || out.shape() == null) {
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
    return arena.op(src, "stack", node, Attrs.of("axis", 1, "num_args", steps), null, stepStates);
  }

  /** How a trace names what {@code input} comes from: its node, or the symbol itself. */
  private static String comesFrom(Sym input) {
    return input instanceof SymNode n && n.source() != null ? n.source().node() : input.name();
  }

  /** {@code params} as values of {@code trace}, their axes named as their declarations say. */
  private static List<Sym> traced(List<Sym> params, Trace trace) {
    List<Sym> traced = new ArrayList<>();
    for (Sym p : params) {
      TracedSym n = (TracedSym) p;
      traced.add(new TracedSym(n, n.shape(), trace, n.name(), n.axes()));
    }
    return traced;
  }

  /**
   * A shape pattern's tokens as axis names: each dimension name, null for a number (it names no
   * dimension); null for an unknown pattern.
   */
  private static List<String> named(List<String> pattern) {
    if (pattern == null) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (String token : pattern) {
      names.add(token.isEmpty() || Character.isDigit(token.charAt(0)) ? null : token);
    }
    return names;
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
}
