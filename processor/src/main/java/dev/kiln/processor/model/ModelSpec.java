package dev.kiln.processor.model;

import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;

/**
 * A {@code @Model} interface as read, before any checking.
 *
 * @param element the interface
 * @param packageName its package
 * @param simpleName its simple name
 * @param classifier {@code @Model(classifier = true)}
 * @param mirror the {@code @Model} annotation
 * @param nodes the nodes in declaration order, a {@code @Block}'s inlined in its place
 * @param blocks the {@code @Block} nodes, in declaration order
 * @param dims the free dimensions it declares ({@code @FreeDim}), in declaration order
 */
public record ModelSpec(
    TypeElement element,
    String packageName,
    String simpleName,
    boolean classifier,
    AnnotationMirror mirror,
    List<NodeSpec> nodes,
    List<BlockSpec> blocks,
    List<FreeDimSpec> dims) {
  /** Copies the nodes. */
  public ModelSpec {
    nodes = List.copyOf(nodes);
    blocks = List.copyOf(blocks);
    dims = List.copyOf(dims);
  }

  /** A model without free dimensions. */
  public ModelSpec(
      TypeElement element,
      String packageName,
      String simpleName,
      boolean classifier,
      AnnotationMirror mirror,
      List<NodeSpec> nodes,
      List<BlockSpec> blocks) {
    this(element, packageName, simpleName, classifier, mirror, nodes, blocks, List.of());
  }

  /** A model without blocks. */
  public ModelSpec(
      TypeElement element,
      String packageName,
      String simpleName,
      boolean classifier,
      AnnotationMirror mirror,
      List<NodeSpec> nodes) {
    this(element, packageName, simpleName, classifier, mirror, nodes, List.of());
  }

  /** The block node {@code name}, or null. */
  public BlockSpec block(String name) {
    return blocks.stream().filter(b -> b.name().equals(name)).findFirst().orElse(null);
  }

  /** The last node declared, or null in a model without nodes. */
  public NodeSpec last() {
    return nodes.isEmpty() ? null : nodes.get(nodes.size() - 1);
  }
}
