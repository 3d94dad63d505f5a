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
 * @param nodes the nodes in declaration order
 */
public record ModelSpec(
    TypeElement element,
    String packageName,
    String simpleName,
    boolean classifier,
    AnnotationMirror mirror,
    List<NodeSpec> nodes) {
  /** Copies the nodes. */
  public ModelSpec {
    nodes = List.copyOf(nodes);
  }

  /** The last node declared, or null in a model without nodes. */
  public NodeSpec last() {
    return nodes.isEmpty() ? null : nodes.get(nodes.size() - 1);
  }
}
