package dev.kiln.processor.model;

import dev.kiln.ops.Op;
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
 * @param inlined whose copy the node is, for a node of a {@code @Block}; null for the model's own
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
    ImportedFrom origin,
    Inlined inlined) {

  /**
   * Where an inlined node comes from.
   *
   * @param block the {@code @Block} node's name, e.g. {@code encoder}
   * @param copy which copy, from 0
   * @param declaredAs how messages name the node in the block, e.g. {@code
   *     EncoderBlock.attention()}
   */
  public record Inlined(String block, int copy, String declaredAs) {}

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
    this(
        name, layer, wires, method, mirror, annotationText, markedOutput, frozenMirror, null, null);
  }

  /** A node expanded from an imported symbol file, not written by a {@code @Block}. */
  public NodeSpec(
      String name,
      Op layer,
      List<Wire> wires,
      ExecutableElement method,
      AnnotationMirror mirror,
      String annotationText,
      boolean markedOutput,
      AnnotationMirror frozenMirror,
      ImportedFrom origin) {
    this(
        name,
        layer,
        wires,
        method,
        mirror,
        annotationText,
        markedOutput,
        frozenMirror,
        origin,
        null);
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
    return frozenMirror != null || origin != null && origin.constant();
  }

  /** {@code @Frozen @Dense(units = 3)}: the annotations that make the node, as written. */
  public String layerText() {
    return frozen() ? "@Frozen " + annotationText : annotationText;
  }

  /**
   * {@code FashionMlp.hidden()}: how messages name the declaration; {@code Net.features() conv0}
   * for node {@code conv0} of an imported file; {@code EncoderBlock.attention() in Vit.encoder()
   * copy 2} for a node of a {@code @Block}.
   */
  public String declaration(String model) {
    if (inlined != null) {
      return inlined.declaredAs()
          + " in "
          + model
          + "."
          + inlined.block()
          + "() copy "
          + inlined.copy();
    }
    return origin == null
        ? model + "." + name + "()"
        : model + "." + origin.method() + "() " + origin.fileNode();
  }

  /** This node as copy {@code copy} of block node {@code block}, renamed and rewired. */
  public NodeSpec inline(
      String newName, List<Wire> newWires, String block, int copy, String model) {
    return new NodeSpec(
        newName,
        layer,
        newWires,
        method,
        mirror,
        annotationText,
        false,
        frozenMirror,
        origin,
        new Inlined(block, copy, declaration(model)));
  }

  /** This node with {@code newWires}. */
  public NodeSpec rewired(List<Wire> newWires) {
    return new NodeSpec(
        name,
        layer,
        newWires,
        method,
        mirror,
        annotationText,
        markedOutput,
        frozenMirror,
        origin,
        inlined);
  }

  /** This node marked {@code @Output} or not. */
  public NodeSpec markedOutput(boolean marked) {
    return new NodeSpec(
        name, layer, wires, method, mirror, annotationText, marked, frozenMirror, origin, inlined);
  }
}
