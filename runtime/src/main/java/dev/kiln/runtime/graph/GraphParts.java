package dev.kiln.runtime.graph;

import dev.kiln.ops.RnnLayout;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * Everything Kiln knows about a built graph besides its symbol: what a {@link Graph} is made of.
 *
 * @param model the model's simple name
 * @param inputs the inputs, in declaration order
 * @param outputs the output nodes, in declaration order
 * @param params the learnable parameters, in MXNet's argument order
 * @param labels the label variables of a training graph
 * @param labelShapes the shape of each label, {@link Shape#BATCH} first, as MXNet inferred it when
 *     the graph was built
 * @param arguments every argument of the symbol, in MXNet's order
 * @param sources where each node was declared
 * @param auxStates the auxiliary states, in MXNet's order
 * @param frozen the parameters of {@code @Frozen} nodes
 * @param reshapes the reshapes to check before binding
 * @param states the recurrent state arguments, in build order
 * @param rnnLayouts the layout of each fused recurrent vector, by parameter name
 * @param unrolledSteps the steps cells over {@code Dim.STEPS} are unrolled over, or 0
 * @param unrolledCells the nodes of those cells
 * @param rebuild builds the graph for another number of steps, or null
 */
record GraphParts(
    String model,
    List<InputSpec> inputs,
    List<String> outputs,
    List<ParamSpec> params,
    List<String> labels,
    List<Shape> labelShapes,
    List<String> arguments,
    SourceMap sources,
    List<AuxSpec> auxStates,
    Set<String> frozen,
    List<ReshapeGuard.Check> reshapes,
    List<StateSpec> states,
    Map<String, RnnLayout> rnnLayouts,
    int unrolledSteps,
    List<String> unrolledCells,
    IntFunction<Graph> rebuild,
    Dimensions dimensions) {
  /** Copies the collections. */
  GraphParts {
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    params = List.copyOf(params);
    labels = List.copyOf(labels);
    labelShapes = List.copyOf(labelShapes);
    arguments = List.copyOf(arguments);
    auxStates = List.copyOf(auxStates);
    frozen = Set.copyOf(frozen);
    reshapes = List.copyOf(reshapes);
    states = List.copyOf(states);
    rnnLayouts = Map.copyOf(rnnLayouts);
    unrolledCells = List.copyOf(unrolledCells);
  }

  /** These parts with {@code rebuild} in place of this one's. */
  GraphParts withRebuild(IntFunction<Graph> other) {
    return new GraphParts(
        model,
        inputs,
        outputs,
        params,
        labels,
        labelShapes,
        arguments,
        sources,
        auxStates,
        frozen,
        reshapes,
        states,
        rnnLayouts,
        unrolledSteps,
        unrolledCells,
        other,
        dimensions);
  }
}
