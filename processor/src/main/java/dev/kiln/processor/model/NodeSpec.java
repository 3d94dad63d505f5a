package dev.kiln.processor.model;

import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.VariableElement;

/**
 * One node of a model as declared: its method, its layer and the names it reads. Everything the
 * later phases need from the declaration is read into it, so that they never go back to the element
 * except to point diagnostics at it.
 *
 * @param name the node's name (the method's name)
 * @param layer what it computes
 * @param wires what it reads, one per method parameter, in order
 * @param method the declaring method (diagnostics point here)
 * @param mirror the layer annotation as written (diagnostics underline its values)
 * @param annotationText the annotation rendered as written, e.g. {@code @Dense(units = 128)}
 * @param markedOutput whether the method is annotated {@code @Output}
 * @param frozenMirror the method's {@code @Frozen} annotation, or null when it has none
 * @param origin where the node came from when it was expanded from an imported symbol file
 *     ({@code @Imported}); null for a node declared by a method of its own
 */
public record NodeSpec(
    String name,
    Op layer,
    List<Wire> wires,
    ExecutableElement method,
    AnnotationMirror mirror,
    String annotationText,
    boolean markedOutput,
    AnnotationMirror frozenMirror,
    ImportedFrom origin) {

  /**
   * One method parameter: the name of the node or input it reads.
   *
   * @param source the name read, the parameter's own or that of its {@code @From}
   * @param parameterName the parameter's name
   * @param parameter the parameter (diagnostics point here)
   */
  public record Wire(String source, String parameterName, VariableElement parameter) {}

  /** Copies the wires. */
  public NodeSpec {
    wires = List.copyOf(wires);
  }

  /** A node declared by a method of its own. */
  public NodeSpec(
      String name,
      Op layer,
      List<Wire> wires,
      ExecutableElement method,
      AnnotationMirror mirror,
      String annotationText,
      boolean markedOutput,
      AnnotationMirror frozenMirror) {
    this(name, layer, wires, method, mirror, annotationText, markedOutput, frozenMirror, null);
  }

  /** Whether the node was expanded from an imported symbol file but is not the import's output. */
  public boolean importedInner() {
    return origin != null && !origin.output();
  }

  /** Whether the node is a model input. */
  public boolean isInput() {
    return layer.isInput();
  }

  /** Whether the method is annotated {@code @Frozen}: its parameters are not trained. */
  public boolean frozen() {
    return frozenMirror != null;
  }

  /** {@code @Frozen @Dense(units = 3)}: the annotations that make the node, as written. */
  public String layerText() {
    return frozen() ? "@Frozen " + annotationText : annotationText;
  }

  /**
   * {@code FashionMlp.hidden()}: how messages name the declaration; {@code Net.features() conv0}
   * for node {@code conv0} of an imported file.
   */
  public String declaration(String model) {
    return origin == null
        ? model + "." + name + "()"
        : model + "." + origin.method() + "() " + origin.fileNode();
  }
}
