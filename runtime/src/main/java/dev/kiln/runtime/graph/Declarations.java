package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.ops.RnnLayout;
import dev.kiln.ops.emit.NodeSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a graph's nodes declared while it was built, beside their symbols: inputs, parameters,
 * auxiliary and recurrent states, labels, where each operator came from, and the checks left for
 * build and bind time. {@link GraphAssembly} turns it into the {@link Graph}'s parts.
 */
final class Declarations {
  final List<InputSpec> inputs = new ArrayList<>();
  final Map<String, NodeSource> sources = new LinkedHashMap<>();
  final Map<String, ParamSpec.Kind> paramKinds = new LinkedHashMap<>();
  final Map<String, String> paramNodes = new LinkedHashMap<>();
  final Map<String, Float> paramConstants = new LinkedHashMap<>();
  final List<String> labels = new ArrayList<>();
  final Map<String, Shape> knownShapes = new LinkedHashMap<>();
  final Map<String, AuxSpec.Kind> auxKinds = new LinkedHashMap<>();
  final Map<String, String> auxNodes = new LinkedHashMap<>();
  final Set<String> frozenNodes = new HashSet<>();
  final List<ReshapeGuard.Check> reshapes = new ArrayList<>();
  final Map<String, RnnLayout> rnnLayouts = new LinkedHashMap<>();
  final List<StateSpec> states = new ArrayList<>();
  final List<Sym> stateOutputs = new ArrayList<>();
  final List<AxisCheck> axisChecks = new ArrayList<>();
  final List<String> unrolledCells = new ArrayList<>();
  Dimensions dimensions = Dimensions.NONE;

  /** Parameter {@code name} of {@code node}, initialised as {@code kind} says. */
  void param(String name, String node, ParamSpec.Kind kind) {
    paramKinds.putIfAbsent(name, kind);
    paramNodes.putIfAbsent(name, node);
  }

  /** Parameter {@code name} of {@code node}, every element starting at {@code value}. */
  void constantParam(String name, String node, float value) {
    param(name, node, ParamSpec.Kind.CONSTANT);
    paramConstants.put(name, value);
  }

  /** Auxiliary state {@code name} of {@code node}. */
  void aux(String name, String node, AuxSpec.Kind kind) {
    auxKinds.putIfAbsent(name, kind);
    auxNodes.putIfAbsent(name, node);
  }

  /** Marks state {@code name} stateful: its final value {@code last} becomes a graph output. */
  void carry(String name, Sym last) {
    for (int i = 0; i < states.size(); i++) {
      StateSpec s = states.get(i);
      if (s.name().equals(name)) {
        states.set(
            i,
            new StateSpec(
                s.name(), s.node(), s.cell(), s.pattern(), true, stateOutputs.size(), s.batch()));
      }
    }
    stateOutputs.add(last);
  }

  /** Whether {@code name} is a variable: an input, parameter, auxiliary state or state. */
  boolean isVariable(String name) {
    return inputs.stream().anyMatch(i -> i.name().equals(name))
        || paramKinds.containsKey(name)
        || auxKinds.containsKey(name)
        || states.stream().anyMatch(st -> st.name().equals(name));
  }
}
