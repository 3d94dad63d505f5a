package dev.kiln.processor.read;

import dev.kiln.ops.OpReader;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;

/**
 * Renders an annotation as it was written, for messages, tables and the node sources of generated
 * code: {@code @Dense(units = 128, activation = Act.RELU)}. Only explicit values appear. A built-in
 * layer's attributes come in its declared order ({@link OpReader#attributes()}), a custom layer's
 * in the order written where it is used; neither depends on the order in which a compiler lists an
 * annotation type's elements.
 */
final class AnnotationText {
  private AnnotationText() {}

  /** {@code mirror} as written; a shape's -1 is written BATCH, an input's -5 STEPS. */
  static String render(AnnotationMirror mirror) {
    TypeElement type = (TypeElement) mirror.getAnnotationType().asElement();
    List<Map.Entry<? extends ExecutableElement, ? extends AnnotationValue>> values =
        new ArrayList<>(mirror.getElementValues().entrySet());
    OpReader<?> builtin = Builtins.of(mirror);
    if (builtin != null) {
      List<String> order = builtin.attributes();
      values.sort(
          Comparator.comparingInt(e -> order.indexOf(e.getKey().getSimpleName().toString())));
    }
    List<String> parts = new ArrayList<>();
    for (var e : values) {
      String name = e.getKey().getSimpleName().toString();
      boolean shape = name.equals("shape");
      Object raw = e.getValue().getValue();
      if (!shape && raw instanceof List<?> one && one.size() == 1) {
        raw = ((AnnotationValue) one.get(0)).getValue();
      }
      String v = renderValue(raw, shape, Builtins.isInput(mirror));
      boolean classLiteral = raw instanceof DeclaredType;
      parts.add(
          name.equals("value") && !(classLiteral && values.size() > 1) ? v : name + " = " + v);
    }
    String name = "@" + type.getSimpleName();
    return parts.isEmpty() ? name : name + "(" + String.join(", ", parts) + ")";
  }

  private static String renderValue(Object v, boolean shape, boolean input) {
    if (v instanceof List<?> list) {
      return list.stream()
          .map(o -> renderValue(((AnnotationValue) o).getValue(), shape, input))
          .collect(Collectors.joining(", ", "{", "}"));
    }
    if (v instanceof DeclaredType t) {
      return t.asElement().getSimpleName() + ".class";
    }
    if (v instanceof VariableElement constant) {
      return constant.getEnclosingElement().getSimpleName() + "." + constant.getSimpleName();
    }
    if (v instanceof String s) {
      return "\"" + s + "\"";
    }
    if (shape && v instanceof Integer i && i == TShape.BATCH) {
      return "BATCH";
    }
    if (input && v instanceof Integer i && i == TShape.STEPS) {
      return "STEPS";
    }
    return String.valueOf(v);
  }
}
