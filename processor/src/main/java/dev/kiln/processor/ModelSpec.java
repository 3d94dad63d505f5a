package dev.kiln.processor;

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
record ModelSpec(TypeElement element, String packageName, String simpleName, boolean classifier,
    AnnotationMirror mirror, List<NodeSpec> nodes) {
  ModelSpec {
    nodes = List.copyOf(nodes);
  }
}
