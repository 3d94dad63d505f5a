package dev.kiln.processor.model;

import dev.kiln.ops.rule.SizeExpr;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.VariableElement;

/**
 * A free dimension as a model declares it: {@code @FreeDim(min = 12) int H = -10;}.
 *
 * @param name the constant's name, the dimension's name
 * @param placeholder the constant's value, which stands for the dimension in annotations
 * @param min the least size
 * @param max the greatest size ({@code Integer.MAX_VALUE} for no limit)
 * @param multipleOf sizes are multiples of this
 * @param equals the expression in other dimensions it equals, or null for an independent one
 * @param field the constant
 * @param mirror its {@code @FreeDim} annotation
 */
public record FreeDimSpec(
    String name,
    int placeholder,
    int min,
    int max,
    int multipleOf,
    SizeExpr equals,
    VariableElement field,
    AnnotationMirror mirror) {
  /** {@code @FreeDim(min = 12) int H}: how messages and requirements name the declaration. */
  public String declaration() {
    StringBuilder b = new StringBuilder("@FreeDim");
    StringBuilder attrs = new StringBuilder();
    if (min != 1) {
      attrs.append("min = ").append(min);
    }
    if (max != Integer.MAX_VALUE) {
      attrs.append(attrs.length() > 0 ? ", " : "").append("max = ").append(max);
    }
    if (multipleOf != 1) {
      attrs.append(attrs.length() > 0 ? ", " : "").append("multipleOf = ").append(multipleOf);
    }
    if (equals != null) {
      attrs.append(attrs.length() > 0 ? ", " : "").append("equals = \"").append(equals).append('"');
    }
    if (attrs.length() > 0) {
      b.append('(').append(attrs).append(')');
    }
    return b.append(" int ").append(name).toString();
  }

  /**
   * The expression the dimension stands for: what it equals, or itself, as a whole number of {@code
   * multipleOf}s, so that the compiler knows {@code 2 * (H / 2)} is {@code H} when {@code
   * multipleOf} is 2.
   */
  public SizeExpr expression() {
    return equals != null ? equals : SizeExpr.multiple(name, multipleOf);
  }
}
