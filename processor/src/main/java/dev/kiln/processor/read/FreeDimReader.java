package dev.kiln.processor.read;

import dev.kiln.annotations.FreeDim;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.SizeExpr;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.FreeDimSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.ElementFilter;

/**
 * Reads a model's free dimensions: its constants annotated {@link FreeDim}. Each is an {@code int}
 * whose value, a placeholder from {@code -10} to {@code -999}, no other dimension uses; its bounds
 * are positive and ordered; {@code equals} names only the model's independent dimensions.
 */
final class FreeDimReader {
  private FreeDimReader() {}

  /** The free dimensions of {@code type}, or null when one was reported. */
  static List<FreeDimSpec> read(TypeElement type, Report report) {
    String model = type.getSimpleName().toString();
    List<FreeDimSpec> dims = new ArrayList<>();
    Map<Integer, String> byValue = new HashMap<>();
    Map<String, String> equalsText = new LinkedHashMap<>();
    boolean ok = true;
    // Every int constant's value, so that a suggested placeholder is one no constant has.
    Set<Integer> values = new HashSet<>();
    for (VariableElement field : ElementFilter.fieldsIn(type.getEnclosedElements())) {
      if (field.getConstantValue() instanceof Integer v) {
        values.add(v);
      }
    }
    for (VariableElement field : ElementFilter.fieldsIn(type.getEnclosedElements())) {
      FreeDim a = field.getAnnotation(FreeDim.class);
      if (a == null) {
        continue;
      }
      AnnotationMirror mirror = mirror(field);
      String name = field.getSimpleName().toString();
      String where = model + "." + name;
      Object value = field.getConstantValue();
      if (field.asType().getKind() != TypeKind.INT || !(value instanceof Integer)) {
        report.add(
            Message.FREE_DIM_DECLARATION,
            field,
            mirror,
            null,
            where,
            name,
            "a free dimension is an int constant, e.g. @FreeDim int " + name + " = -10;");
        ok = false;
        continue;
      }
      int v = (Integer) value;
      String taken = byValue.putIfAbsent(v, name);
      if (!TShape.isPlaceholder(v) || taken != null) {
        report.add(
            Message.FREE_DIM_VALUE,
            field,
            where,
            name,
            v,
            (taken != null ? " (" + taken + " is " + v + " too)" : "")
                + "; e.g. "
                + name
                + " = "
                + unused(values));
        ok = false;
        continue;
      }
      String problem =
          a.min() < 1
              ? "min must be at least 1, got " + a.min()
              : a.max() < a.min()
                  ? "max, " + a.max() + ", is below min, " + a.min()
                  : a.multipleOf() < 1
                      ? "multipleOf must be positive, got " + a.multipleOf()
                      : null;
      if (problem != null) {
        report.add(Message.FREE_DIM_DECLARATION, field, mirror, null, where, name, problem);
        ok = false;
        continue;
      }
      dims.add(new FreeDimSpec(name, v, a.min(), a.max(), a.multipleOf(), null, field, mirror));
      if (!a.equals().isBlank()) {
        equalsText.put(name, a.equals());
      }
    }
    if (!ok) {
      return null;
    }
    return withEquals(model, dims, equalsText, report);
  }

  /** The first placeholder no value in {@code values} is, which is then taken. */
  private static int unused(Set<Integer> values) {
    int v = TShape.PLACEHOLDER_FIRST;
    while (values.contains(v)) {
      v--;
    }
    values.add(v);
    return v;
  }

  /**
   * {@code dims} with each {@code equals} read: an expression in the dimensions declared without
   * one (so that no definition refers to another, or to itself).
   */
  private static List<FreeDimSpec> withEquals(
      String model, List<FreeDimSpec> dims, Map<String, String> equalsText, Report report) {
    List<FreeDimSpec> out = new ArrayList<>();
    boolean ok = true;
    for (FreeDimSpec d : dims) {
      String text = equalsText.get(d.name());
      if (text == null) {
        out.add(d);
        continue;
      }
      String problem = null;
      SizeExpr e = null;
      try {
        e = SizeExpr.parse(text);
        for (String used : e.dims()) {
          if (!equalsText.containsKey(used)
              && dims.stream().noneMatch(o -> o.name().equals(used))) {
            problem =
                "equals = \""
                    + text
                    + "\" names "
                    + used
                    + ", which is not a free dimension of "
                    + model
                    + " (declared: "
                    + String.join(", ", dims.stream().map(FreeDimSpec::name).toList())
                    + ")";
          } else if (equalsText.containsKey(used)) {
            problem =
                "equals = \""
                    + text
                    + "\" names "
                    + used
                    + ", which is defined by an equals of its own; write "
                    + d.name()
                    + " in the independent dimensions only";
          }
        }
        if (problem == null && e.isConstant()) {
          problem =
              "equals = \""
                  + text
                  + "\" is a constant; declare "
                  + d.name()
                  + " as a plain int constant of that size instead";
        }
      } catch (IllegalArgumentException ex) {
        problem = ex.getMessage();
      }
      if (problem != null) {
        report.add(
            Message.FREE_DIM_DECLARATION,
            d.field(),
            d.mirror(),
            "equals",
            model + "." + d.name(),
            d.name(),
            problem);
        ok = false;
        continue;
      }
      // Written in the independent dimensions as they stand for themselves (W declared a multiple
      // of 2 is 2 * (W / 2) in the algebra, so is an H that equals "W").
      SizeExpr inDims =
          e.substitute(
              used ->
                  dims.stream()
                      .filter(o -> o.name().equals(used))
                      .findFirst()
                      .orElseThrow()
                      .expression());
      out.add(
          new FreeDimSpec(
              d.name(),
              d.placeholder(),
              d.min(),
              d.max(),
              d.multipleOf(),
              inDims,
              d.field(),
              d.mirror()));
    }
    return ok ? out : null;
  }

  private static AnnotationMirror mirror(VariableElement field) {
    for (AnnotationMirror m : field.getAnnotationMirrors()) {
      if (((TypeElement) m.getAnnotationType().asElement())
          .getQualifiedName()
          .contentEquals(FreeDim.class.getCanonicalName())) {
        return m;
      }
    }
    return null;
  }
}
