package dev.kiln.processor.model;

import dev.kiln.ops.rule.TShape;
import java.util.List;
import java.util.Map;

/**
 * Where a node expanded from an imported symbol file ({@code @Imported}) came from. Every node of
 * the file that the import needs becomes one node of the model, with the file's name; the node
 * whose output the import is takes the method's name instead.
 *
 * @param symbol the symbol file as the annotation names it, e.g. {@code lenet-symbol.json}
 * @param method the {@code @Imported} method's name
 * @param fileNode the node's name in the file
 * @param entry the file's name for what the node computes: {@code fileNode}, or {@code
 *     <fileNode>_output<i>} for output {@code i} of a file node of several outputs
 * @param names the MXNet names of the node's parameters and auxiliary states, by role ({@code
 *     weight} to {@code hybridsequential0_conv0_weight}): the file's own, whatever the node is
 *     called
 * @param declared the {@code @Imported} method's wires, what the generated method takes, for the
 *     node that is the import's output; empty for the others
 * @param output whether the node is the import's output, named after the method
 * @param onnx whether the file is an ONNX model ({@code @Imported(onnx = ...)})
 * @param constant whether the node is a constant the file computes, frozen
 * @param onnxInputs for an ONNX import's output, the shapes the file's inputs were read with, by
 *     ONNX name (what {@code loadImported} reads the file with again); empty otherwise
 * @param cutAway for the import's output, the names of the file's variables and auxiliary states
 *     that are none of the imported nodes' (of nodes the import cut away, and the file's inputs),
 *     which its {@code .params} may hold; empty for the other nodes
 * @param shapeHints the shapes the file's variables declare for the node's parameters and auxiliary
 *     states ({@code __shape__}, as Gluon's export writes it; 0 or -1 for a size left open), by
 *     MXNet name: checked against the inferred shapes; empty when the file has none
 */
public record ImportedFrom(
    String symbol,
    String method,
    String fileNode,
    String entry,
    Map<String, String> names,
    List<NodeSpec.Wire> declared,
    boolean output,
    List<String> cutAway,
    boolean onnx,
    boolean constant,
    Map<String, TShape> onnxInputs,
    Map<String, List<Integer>> shapeHints) {
  /** Copies the names and wires. */
  public ImportedFrom {
    shapeHints = Map.copyOf(shapeHints);
    names = Map.copyOf(names);
    declared = List.copyOf(declared);
    cutAway = List.copyOf(cutAway);
    onnxInputs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(onnxInputs));
  }

  /** A node of a file whose variables declare no shapes. */
  public ImportedFrom(
      String symbol,
      String method,
      String fileNode,
      String entry,
      Map<String, String> names,
      List<NodeSpec.Wire> declared,
      boolean output,
      List<String> cutAway,
      boolean onnx,
      boolean constant,
      Map<String, TShape> onnxInputs) {
    this(
        symbol,
        method,
        fileNode,
        entry,
        names,
        declared,
        output,
        cutAway,
        onnx,
        constant,
        onnxInputs,
        Map.of());
  }

  /** A node of an MXNet symbol file whose variables declare no shapes. */
  public ImportedFrom(
      String symbol,
      String method,
      String fileNode,
      String entry,
      Map<String, String> names,
      List<NodeSpec.Wire> declared,
      boolean output,
      List<String> cutAway) {
    this(symbol, method, fileNode, entry, names, declared, output, cutAway, false, false, Map.of());
  }

  /**
   * The MXNet name of the parameter or auxiliary state with role {@code role} of node {@code node}.
   */
  public String name(String role, String node) {
    String name = names.get(role);
    return name != null ? name : node + "_" + role;
  }
}
