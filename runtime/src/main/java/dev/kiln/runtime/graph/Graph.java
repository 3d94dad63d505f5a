package dev.kiln.runtime.graph;

import dev.kiln.ops.Native;
import dev.kiln.ops.RnnLayout;
import dev.kiln.ops.file.SymbolFile;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * A built model graph: one MXNet symbol (grouping the outputs) with the inputs, outputs and
 * parameters Kiln knows about it, and where every node was declared.
 *
 * <p>A model with a custom recurrent cell over {@code Dim.STEPS} has one symbol per number of
 * steps, since the cell is unrolled into it: such a graph is unrolled over {@link #unrolledSteps()}
 * steps and builds the same model for any other number with {@link #unroll}. Every such variant has
 * the same inputs, outputs, parameters, auxiliary and recurrent states; only the symbol differs.
 *
 * <p>The graph owns its symbol handle and frees it in {@link #close()}.
 */
public final class Graph implements AutoCloseable {
  private final SymbolHandle symbol;
  private final GraphParts parts;
  private final String model;
  private final List<InputSpec> inputs;
  private final List<String> outputs;
  private final List<ParamSpec> params;
  private final List<AuxSpec> auxStates;
  private final List<StateSpec> states;
  private final int unrolledSteps;
  private final Map<String, Shape> widenedAux;
  private Set<String> reordered;
  private Set<String> relabelled;
  private boolean closed;

  /** The graph of {@code symbol}, which it owns from now on, made of {@code parts}. */
  Graph(SymbolHandle symbol, GraphParts parts) {
    this(symbol, parts, Map.of());
  }

  private Graph(SymbolHandle symbol, GraphParts parts, Map<String, Shape> widenedAux) {
    this.widenedAux = Map.copyOf(widenedAux);
    this.symbol = symbol;
    this.parts = parts;
    this.model = parts.model();
    this.inputs = parts.inputs();
    this.outputs = parts.outputs();
    this.params = parts.params();
    this.auxStates = parts.auxStates();
    this.states = parts.states();
    this.unrolledSteps = parts.unrolledSteps();
  }

  /**
   * The number of steps this graph's custom recurrent cells over {@code Dim.STEPS} are unrolled
   * over, or 0 when it has no such cell: then its one symbol serves every number of steps (a fused
   * recurrent layer reads any length), and {@link #unroll} is not needed.
   */
  public int unrolledSteps() {
    return unrolledSteps;
  }

  /** The nodes of the cells unrolled over {@link #unrolledSteps()}, in build order. */
  public List<String> unrolledCells() {
    return parts.unrolledCells();
  }

  /**
   * A new graph of the same model with its cells over {@code Dim.STEPS} unrolled over {@code steps}
   * steps (the caller owns it and must close it): same inputs, outputs, parameters, auxiliary and
   * recurrent states, checked here, over a symbol of its own (MXNet may list its arguments in
   * another order; bind by name).
   *
   * @throws IllegalStateException if this graph has no cell over {@code Dim.STEPS} ({@link
   *     #unrolledSteps()} is 0), or the graph built for {@code steps} differs in more than its
   *     symbol
   * @throws IllegalArgumentException if {@code steps} is less than 1
   * @throws ModelException if a traced step does not fit its shapes
   */
  public Graph unroll(int steps) {
    if (unrolledSteps == 0) {
      throw new IllegalStateException(
          model
              + " has no recurrent cell over Dim.STEPS: one graph "
              + "serves every number of steps");
    }
    if (steps < 1) {
      throw new IllegalArgumentException(
          model + ": a cell is unrolled over at least one step, " + "got " + steps);
    }
    Graph g = parts.rebuild().apply(steps);
    String difference =
        g.unrolledSteps != steps
            ? "it is unrolled over " + g.unrolledSteps + " steps"
            : !g.inputs.equals(inputs)
                ? "its inputs are " + g.inputs
                : !g.outputs.equals(outputs)
                    ? "its outputs are " + g.outputs
                    : !Set.copyOf(g.params).equals(Set.copyOf(params))
                        ? "its parameters are " + g.params
                        : !Set.copyOf(g.auxStates).equals(Set.copyOf(auxStates))
                            ? "its auxiliary states are " + g.auxStates
                            : !Set.copyOf(g.states).equals(Set.copyOf(states))
                                ? "its recurrent states are " + g.states
                                : !g.labels().equals(labels())
                                    ? "its labels are " + g.labels()
                                    : !g.parts.frozen().equals(parts.frozen())
                                        ? "its frozen parameters are " + g.parts.frozen()
                                        : null;
    if (difference != null) {
      g.close();
      throw new IllegalStateException(
          model
              + ": the graph built for "
              + steps
              + " steps differs "
              + "from the one for "
              + unrolledSteps
              + " in more than its symbol: "
              + difference);
    }
    return g;
  }

  /**
   * The number of steps the symbol {@code json} (a checkpoint's, say) unrolls this model's first
   * cell over Dim.STEPS: the {@code num_outputs} of that cell's {@code <node>_steps} split, or -1
   * when the graph has no such cell, {@code json} is not a symbol, has no such split, or claims
   * more steps than it has nodes (no graph of this model would).
   */
  public int stepsIn(String json) {
    if (parts.unrolledCells().isEmpty()) {
      return -1;
    }
    SymbolFile symbol;
    try {
      symbol = SymbolFile.parse(json);
    } catch (IllegalArgumentException e) {
      return -1;
    }
    String split = parts.unrolledCells().get(0) + "_steps";
    for (SymbolFile.Node n : symbol.nodes()) {
      if (n.name().equals(split) && "SliceChannel".equals(n.op())) {
        try {
          int steps = Integer.parseInt(n.attrs().getOrDefault("num_outputs", "").strip());
          return steps >= 1 && steps <= symbol.nodes().size() ? steps : -1;
        } catch (NumberFormatException e) {
          return -1;
        }
      }
    }
    return -1;
  }

  /** The model's simple name, e.g. {@code FashionMlp}. */
  public String model() {
    return model;
  }

  /** The inputs, in declaration order. */
  public List<InputSpec> inputs() {
    return inputs;
  }

  /**
   * The names of the output nodes, in declaration order. The symbol may have more outputs after
   * these: the final states of stateful recurrent layers ({@link #states()}).
   */
  public List<String> outputs() {
    return outputs;
  }

  /** The recurrent state arguments, in the order their layers were built. */
  public List<StateSpec> states() {
    return states;
  }

  /** The state argument named {@code name}, or null. */
  public StateSpec state(String name) {
    for (StateSpec s : states) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    return null;
  }

  /** Whether any recurrent layer carries its state from call to call. */
  public boolean isStateful() {
    return states.stream().anyMatch(StateSpec::stateful);
  }

  /**
   * The layout of the fused recurrent vector {@code name} (a {@link ParamSpec.Kind#RECURRENT}
   * parameter), or null for any other parameter.
   */
  public RnnLayout rnnLayout(String name) {
    return parts.rnnLayouts().get(name);
  }

  /** The learnable parameters, in MXNet's argument order. */
  public List<ParamSpec> params() {
    return params;
  }

  /**
   * The auxiliary states (e.g. a {@code BatchNorm}'s moving averages), in MXNet's order (that of
   * {@code MXSymbolListAuxiliaryStates}, which binding follows).
   */
  public List<AuxSpec> auxStates() {
    return auxStates;
  }

  /**
   * The auxiliary states this graph's symbol reads longer than declared, by name, with the shape it
   * reads (a batch norm after a convolution whose filters a training graph pads, see {@link
   * #widened}): each executor binds an array of that shape of its own and keeps the declared state
   * in step with its first declared-length entries. Empty for a graph as built.
   */
  public Map<String, Shape> widenedAuxStates() {
    return widenedAux;
  }

  /** The auxiliary state named {@code name}, or null. */
  public AuxSpec auxState(String name) {
    for (AuxSpec a : auxStates) {
      if (a.name().equals(name)) {
        return a;
      }
    }
    return null;
  }

  /**
   * Whether parameter {@code name} belongs to a {@code @Frozen} node: bound without a gradient
   * ({@code grad_req} null) and skipped by every update.
   */
  public boolean isFrozen(String name) {
    return parts.frozen().contains(name);
  }

  /**
   * Checks, before an executor is bound for {@code inputShapes} (complete, one per input), that
   * every {@code Reshape} node keeps the number of values. MXNet 1.9.1 does not check this itself
   * and a mismatched reshape overruns its output buffer; here it is a {@link ModelException} naming
   * the node. Does nothing for a graph without reshapes.
   */
  public void checkReshapes(List<Shape> inputShapes) {
    if (!parts.reshapes().isEmpty()) {
      ReshapeGuard.check(this, parts.reshapes(), inputShapes);
    }
  }

  /** The model's free dimensions and what it needs of their sizes ({@link Dimensions#NONE}). */
  public Dimensions dimensions() {
    return parts.dimensions();
  }

  /** The label variables of a classifier graph ({@code <node>_label}); empty otherwise. */
  public List<String> labels() {
    return parts.labels();
  }

  /**
   * The shape of label variable {@code i} ({@link #labels()}), as MXNet inferred it when the graph
   * was built, with its first dimension, the batch, as {@link Shape#BATCH}: the shape of one
   * example's targets for a loss head, {@code [BATCH]} for a classifier's class indices.
   */
  public Shape labelShape(int i) {
    return parts.labelShapes().get(i);
  }

  /** Every argument of the symbol (inputs and parameters) in MXNet's order. */
  public List<String> arguments() {
    return parts.arguments();
  }

  /** Where each node was declared. */
  public SourceMap sources() {
    return parts.sources();
  }

  /** The symbol handle; valid until {@link #close()}. */
  public SymbolHandle symbol() {
    if (closed) {
      throw new IllegalStateException(model + " graph is closed");
    }
    return symbol;
  }

  /** The symbol as MXNet's JSON (what {@code -symbol.json} files hold). */
  public String toJson() {
    return symbol().toJson();
  }

  /**
   * The arguments that MXNet's oneDNN kernels may rewrite in place into their own layout during an
   * inference-mode forward pass (the weights of {@code Convolution}, {@code FullyConnected} and
   * {@code Deconvolution} nodes, see {@link dev.kiln.ops.Native#reorderedInput()}). Such an
   * argument must be bound, in inference, to an array of its own, never to a view of a larger
   * array.
   */
  public Set<String> reorderedWeights() {
    if (reordered == null) {
      reordered = reorderedWeightsInSymbol();
    }
    return reordered;
  }

  /**
   * {@link #reorderedWeights()} as the symbol's JSON says: what a graph made from JSON ({@link
   * #copy}) uses, and what the builder's own record must equal (the differential suite compares
   * them on every model). Parsing costs about 27 ms in a fresh JVM, most of it Gson's start.
   */
  public Set<String> reorderedWeightsInSymbol() {
    return variablesRead(op -> Native.lookup(op).reorderedInput());
  }

  /** The reordered weights as the builder recorded them while it made the symbol. */
  void reorderedWeights(Set<String> names) {
    this.reordered = Set.copyOf(names);
  }

  /**
   * The arguments whose memory layout MXNet's oneDNN kernels relabel in place in every pass (the
   * weights of {@code Deconvolution} nodes, see {@link dev.kiln.ops.Native#relabelledInput()}).
   * Such a parameter, and its gradient, must be an array of its own, in training too.
   */
  public Set<String> relabelledWeights() {
    if (relabelled == null) {
      relabelled = relabelledWeightsInSymbol();
    }
    return relabelled;
  }

  /** {@link #relabelledWeights()} as the symbol's JSON says. */
  public Set<String> relabelledWeightsInSymbol() {
    return variablesRead(op -> Native.lookup(op).relabelledInput());
  }

  /**
   * The variables of the symbol that some operator reads as its input {@code input.applyAsInt(op)}
   * (-1: none), as the symbol's JSON says.
   */
  private Set<String> variablesRead(ToIntFunction<String> input) {
    SymbolFile symbol = SymbolFile.parse(toJson());
    Set<String> out = new LinkedHashSet<>();
    for (SymbolFile.Node n : symbol.nodes()) {
      int index = n.isVariable() ? -1 : input.applyAsInt(n.op());
      if (index >= 0 && index < n.inputs().size()) {
        SymbolFile.Node source = symbol.node(n.inputs().get(index));
        if (source.isVariable()) {
          out.add(source.name());
        }
      }
    }
    return Set.copyOf(out);
  }

  /** The relabelled weights as the builder recorded them while it made the symbol. */
  void relabelledWeights(Set<String> names) {
    this.relabelled = Set.copyOf(names);
  }

  /**
   * A new graph with the same inputs, outputs, parameters and sources over a copy of this graph's
   * symbol, rebuilt from its JSON after {@code edit} (e.g. a replica on another context with an
   * operator attribute changed). The caller owns the copy. A copy of a graph unrolled over {@link
   * #unrolledSteps()} unrolls for other numbers of steps too, each with the same edit.
   */
  public Graph copy(java.util.function.UnaryOperator<String> edit) {
    SymbolHandle copied = SymbolHandle.fromJson(edit.apply(toJson()));
    IntFunction<Graph> rebuild = parts.rebuild();
    IntFunction<Graph> copies =
        rebuild == null
            ? null
            : steps -> {
              try (Graph other = rebuild.apply(steps)) {
                return other.copy(edit);
              }
            };
    return new Graph(copied, parts.withRebuild(copies), widenedAux);
  }

  /**
   * A new graph with the same inputs, outputs, parameters and sources over the symbol {@code json}
   * (an edit of this graph's with the same arguments), whose symbol reads the auxiliary states of
   * {@code auxShapes} with those shapes ({@link #widenedAuxStates()}). The caller owns the copy.
   *
   * @throws IllegalStateException for a graph unrolled over {@link #unrolledSteps()}, whose other
   *     lengths could not be rebuilt the same way
   */
  public Graph widened(String json, Map<String, Shape> auxShapes) {
    if (unrolledSteps != 0) {
      throw new IllegalStateException(model + ": an unrolled graph cannot be widened");
    }
    return new Graph(SymbolHandle.fromJson(json), parts, auxShapes);
  }

  /** The parameter named {@code name}, or null. */
  public ParamSpec param(String name) {
    for (ParamSpec p : params) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    return null;
  }

  /** Frees the symbol handle. Idempotent. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      symbol.close();
    }
  }
}
