package dev.kiln.processor;

import dev.kiln.annotations.Frozen;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;

/**
 * One node of a model as declared: its method, its layer and the names it reads.
 *
 * @param name the node's name (the method's name)
 * @param layer what it computes
 * @param wires what it reads, one per method parameter, in order
 * @param method the declaring method (diagnostics point here)
 * @param mirror the layer annotation as written (diagnostics underline its values)
 * @param annotationText the annotation rendered as written, e.g. {@code @Dense(units = 128)}
 * @param markedOutput whether the method is annotated {@code @Output}
 */
record NodeSpec(String name, LayerSpec layer, List<Wire> wires, ExecutableElement method,
    AnnotationMirror mirror, String annotationText, boolean markedOutput) {

  /** One method parameter: the name of the node or input it reads. */
  record Wire(String source, String parameterName, VariableElement parameter) {}

  NodeSpec {
    wires = List.copyOf(wires);
  }

  boolean isInput() {
    return layer instanceof LayerSpec.Input;
  }

  /** Whether the method is annotated {@code @Frozen}: its parameters are not trained. */
  boolean frozen() {
    return method.getAnnotation(Frozen.class) != null;
  }

  /** {@code FashionMlp.hidden()}: how messages name the declaration. */
  String declaration(String model) {
    return model + "." + name + "()";
  }
}
