package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.mxnet.MxException;
import dev.kiln.runtime.mxnet.ShapeInference;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The last step of building a graph: groups the outputs (and the carried states) into the model's
 * symbol, runs MXNet's shape inference once (every {@code BATCH} set to 1) to learn the parameter
 * shapes, so that a shape error the compiler could not see surfaces now, before any binding, naming
 * its node, and assembles the {@link Graph}.
 */
final class GraphAssembly {
  private final String model;
  private final Declarations d;
  private final SymbolArena arena;
  private final int steps;

  GraphAssembly(String model, Declarations d, SymbolArena arena, int steps) {
    this.model = model;
    this.d = d;
    this.arena = arena;
    this.steps = steps;
  }

  /** The graph of {@code outputs}; {@code rebuild} builds it for another number of steps. */
  Graph assemble(List<Sym> outputs, IntFunction<Graph> rebuild) {
    SymbolHandle group = null;
    try {
      List<Sym> all = new ArrayList<>(outputs);
      all.addAll(d.stateOutputs);
      group = SymbolArena.group(all);
      List<String> outputNames = outputs.stream().map(Sym::name).toList();
      List<String> arguments = group.arguments();
      List<String> auxNames = group.auxiliaryStates();
      SourceMap sourceMap = new SourceMap(model, d.sources);
      Map<String, Shape> auxShapes = new LinkedHashMap<>();
      Map<String, Shape> shapes = inferShapes(group, arguments, sourceMap, auxNames, auxShapes);
      List<ParamSpec> params = new ArrayList<>();
      Set<String> frozen = new HashSet<>();
      for (String arg : arguments) {
        ParamSpec.Kind kind = d.paramKinds.get(arg);
        if (kind != null) {
          params.add(
              new ParamSpec(
                  arg,
                  shapes.get(arg),
                  d.paramNodes.get(arg),
                  kind,
                  d.paramConstants.getOrDefault(arg, 0f)));
          if (d.frozenNodes.contains(d.paramNodes.get(arg))) {
            frozen.add(arg);
          }
        }
      }
      List<AuxSpec> auxStates = new ArrayList<>();
      for (String aux : auxNames) {
        AuxSpec.Kind kind = d.auxKinds.get(aux);
        if (kind == null) {
          throw new IllegalStateException(
              model + ": MXNet lists auxiliary state '" + aux + "', which no Kiln layer made");
        }
        auxStates.add(new AuxSpec(aux, auxShapes.get(aux), d.auxNodes.get(aux), kind));
      }
      boolean unrolled = !d.unrolledCells.isEmpty();
      GraphParts parts =
          new GraphParts(
              model,
              d.inputs,
              outputNames,
              params,
              d.labels,
              d.labels.stream().map(label -> batchFirst(shapes.get(label))).toList(),
              arguments,
              sourceMap,
              auxStates,
              frozen,
              d.reshapes,
              d.states,
              d.rnnLayouts,
              unrolled ? steps : 0,
              d.unrolledCells,
              unrolled ? rebuild : null,
              d.dimensions);
      Graph graph = new Graph(group, parts);
      group = null;
      Set<String> reordered = new LinkedHashSet<>(arena.reorderedWeights());
      reordered.retainAll(arguments);
      graph.reorderedWeights(reordered);
      Set<String> relabelled = new LinkedHashSet<>(arena.relabelledWeights());
      relabelled.retainAll(arguments);
      graph.relabelledWeights(relabelled);
      return graph;
    } finally {
      if (group != null) {
        group.close();
      }
      arena.freeAll();
    }
  }

  /**
   * The shapes Kiln knows of the graph's variables: the inputs with every {@code BATCH} 1 (and
   * every {@code STEPS} 1 unless cells are unrolled over a number of steps, and every free
   * dimension the least size its requirements allow, {@link Dimensions#probe}), the parameters and
   * states it shaped itself. Labels are left for MXNet to infer from what they are compared with.
   */
  private Map<String, int[]> knownShapes() {
    Map<String, int[]> known = new LinkedHashMap<>();
    Map<String, Long> probe = d.dimensions.probe();
    for (InputSpec in : d.inputs) {
      known.put(
          in.name(),
          Arrays.stream(in.shape().dims())
              .map(
                  x ->
                      x == Shape.STEPS && steps > 0
                          ? steps
                          : d.dimensions.nameOf(x) != null
                              ? Math.toIntExact(probe.get(d.dimensions.nameOf(x)))
                              : x < 0 ? 1 : x)
              .toArray());
    }
    d.knownShapes.forEach((name, shape) -> known.put(name, shape.dims()));
    return known;
  }

  private Map<String, Shape> inferShapes(
      SymbolHandle symbol,
      List<String> arguments,
      SourceMap sourceMap,
      List<String> auxNames,
      Map<String, Shape> auxShapes) {
    Map<String, int[]> known = knownShapes();
    for (AxisCheck c : d.axisChecks) {
      c.check(arena, known);
    }
    ShapeInference inferred;
    try {
      inferred = symbol.inferShapes(known);
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

  /** {@code shape}, inferred for a batch of 1, with {@link Shape#BATCH} as its first dimension. */
  private static Shape batchFirst(Shape shape) {
    int[] dims = shape.dims();
    dims[0] = Shape.BATCH;
    return Shape.of(dims);
  }

  private Shape complete(int[] dims, String what, String name) {
    if (dims.length == 0 || Arrays.stream(dims).anyMatch(x -> x <= 0)) {
      String node = d.paramNodes.containsKey(name) ? d.paramNodes.get(name) : d.auxNodes.get(name);
      NodeSource src = node == null ? null : d.sources.get(node);
      throw new ModelException(
          src,
          (src == null ? model : src.toString())
              + ": MXNet could not infer the shape of "
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
}
