package dev.kiln.processor.model;

import dev.kiln.ops.rule.TShape;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;

/**
 * A {@code @Block} node as read: the block written into the model {@code repeat} times, copy {@code
 * i} of its node {@code n} as node {@code <name><i>_<n>}. The inlined nodes are ordinary nodes of
 * the model ({@link NodeSpec#inlined()} says whose copy they are); this record keeps what the
 * checker and the graph writer need of the block as a whole.
 *
 * @param name the node's name (the method's)
 * @param method the declaring method (diagnostics point here)
 * @param mirror the {@code @Block} annotation (diagnostics underline its values)
 * @param annotationText the annotation as written, e.g. {@code @Block(value = Encoder.class, repeat
 *     = 4)}
 * @param type the block interface's simple name
 * @param qualifiedType the block interface's qualified name
 * @param inputName the block's {@code @Input}
 * @param declaredInput the shape it declares
 * @param copyInputs what each copy reads: the node's wire for copy 0, the previous copy's output
 *     for the others
 * @param copies the inlined nodes' names, per copy, in the block's declaration order
 * @param output the node whose output is the block's: the last copy's output
 */
public record BlockSpec(
    String name,
    ExecutableElement method,
    AnnotationMirror mirror,
    String annotationText,
    String type,
    String qualifiedType,
    String inputName,
    TShape declaredInput,
    List<String> copyInputs,
    List<List<String>> copies,
    String output) {
  /** Copies the lists. */
  public BlockSpec {
    copyInputs = List.copyOf(copyInputs);
    copies = copies.stream().map(List::copyOf).toList();
  }

  /** The number of copies. */
  public int repeat() {
    return copies.size();
  }

  /**
   * Whether a block whose input declares {@code declared} takes {@code actual}: the same rank,
   * {@code BATCH} for any batch, {@code STEPS} for any number of steps, a size for itself.
   */
  public static boolean accepts(TShape declared, TShape actual) {
    if (declared.rank() != actual.rank()) {
      return false;
    }
    for (int i = 0; i < declared.rank(); i++) {
      int d = declared.dim(i);
      int a = actual.dim(i);
      boolean fits =
          d == TShape.BATCH
              ? a == TShape.BATCH || a > 0
              : d == TShape.STEPS ? a == TShape.STEPS || a > 0 : a == d;
      if (!fits) {
        return false;
      }
    }
    return true;
  }

  /** {@code Vit.encoder()}: how messages name the declaration. */
  public String declaration(String model) {
    return model + "." + name + "()";
  }
}
