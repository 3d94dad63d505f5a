package dev.kiln.processor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.ElementFilter;

/**
 * Reads a custom layer where a model uses it: the {@code @Layer} declaration on the layer's
 * annotation type (shape patterns, forward class), the values written at the use site, and the
 * forward method's signature (input, {@code @Param}s, constants). Errors are reported on the
 * model's node, where the user is looking.
 */
final class CustomLayerReader {
  static final String LAYER = "dev.kiln.annotations.Layer";
  static final String PARAM = "dev.kiln.annotations.Param";
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|[1-9][0-9]*");

  private final Report report;

  CustomLayerReader(Report report) {
    this.report = report;
  }

  /** The annotations on {@code method} whose types are custom layers. */
  static List<AnnotationMirror> customLayers(ExecutableElement method) {
    List<AnnotationMirror> out = new ArrayList<>();
    for (AnnotationMirror m : method.getAnnotationMirrors()) {
      if (layerOf((TypeElement) m.getAnnotationType().asElement()) != null) {
        out.add(m);
      }
    }
    return out;
  }

  private static AnnotationMirror layerOf(TypeElement type) {
    for (AnnotationMirror m : type.getAnnotationMirrors()) {
      if (((TypeElement) m.getAnnotationType().asElement()).getQualifiedName()
          .contentEquals(LAYER)) {
        return m;
      }
    }
    return null;
  }

  /** Reads the layer used by {@code method} through {@code use}; null after reporting. */
  LayerSpec.Custom read(String where, ExecutableElement method, AnnotationMirror use) {
    TypeElement layerType = (TypeElement) use.getAnnotationType().asElement();
    String layerName = layerType.getSimpleName().toString();
    AnnotationMirror layer = layerOf(layerType);
    List<String> input = strings(value(layer, "input"));
    List<String> output = strings(value(layer, "output"));
    TypeMirror forward = (TypeMirror) value(layer, "forward").getValue();
    if (forward.getKind() != TypeKind.DECLARED) {
      report.add(Message.CUSTOM_FORWARD, method, use, null, where, layerName,
          "its forward class " + forward + " is not a class");
      return null;
    }
    for (List<String> pattern : List.of(input, output)) {
      for (String t : pattern) {
        if (!TOKEN.matcher(t).matches()) {
          report.add(Message.CUSTOM_PATTERN, method, use, null, where, layerName, t);
          return null;
        }
      }
    }

    Map<String, Integer> dims = new LinkedHashMap<>();
    Map<String, String> constants = new LinkedHashMap<>();
    for (ExecutableElement e : ElementFilter.methodsIn(layerType.getEnclosedElements())) {
      AnnotationValue v = Report.valueOf(use, e.getSimpleName().toString());
      if (v == null) {
        v = e.getDefaultValue();
      }
      if (v == null) {
        continue;
      }
      Object o = v.getValue();
      String n = e.getSimpleName().toString();
      if (o instanceof Integer i) {
        if (i <= 0) {
          report.add(Message.NON_POSITIVE, method, use, n, where + " @" + layerName, n, i);
          return null;
        }
        dims.put(n, i);
        constants.put(n, i.toString());
      } else if (o instanceof Float f) {
        constants.put(n, f + "f");
      } else if (o instanceof Double d) {
        constants.put(n, d.toString());
      } else if (o instanceof Boolean b) {
        constants.put(n, b.toString());
      }
    }

    TypeElement forwardType = (TypeElement) ((DeclaredType) forward).asElement();
    List<ExecutableElement> candidates = ElementFilter.methodsIn(
            forwardType.getEnclosedElements()).stream()
        .filter(m -> m.getModifiers().contains(Modifier.PUBLIC)
            && m.getModifiers().contains(Modifier.STATIC)
            && m.getReturnType().toString().equals(ModelReader.SYM))
        .toList();
    if (candidates.size() != 1) {
      report.add(Message.CUSTOM_FORWARD, method, use, null, where, layerName,
          "its forward class " + forwardType.getSimpleName() + " must have exactly one public "
              + "static method returning Sym, found " + candidates.size());
      return null;
    }
    ExecutableElement fwd = candidates.get(0);
    List<? extends VariableElement> ps = fwd.getParameters();
    if (ps.isEmpty() || !ps.get(0).asType().toString().equals(ModelReader.SYM)
        || paramMirror(ps.get(0)) != null) {
      report.add(Message.CUSTOM_FORWARD, method, use, null, where, layerName,
          forwardType.getSimpleName() + "." + fwd.getSimpleName() + " must take the layer's "
              + "input (a Sym without @Param) as its first parameter");
      return null;
    }
    List<LayerSpec.CustomParam> params = new ArrayList<>();
    List<LayerSpec.ForwardArg> args = new ArrayList<>();
    for (VariableElement p : ps.subList(1, ps.size())) {
      String n = p.getSimpleName().toString();
      AnnotationMirror pm = paramMirror(p);
      if (pm != null && p.asType().toString().equals(ModelReader.SYM)) {
        List<String> shape = strings(value(pm, "shape"));
        for (String t : shape) {
          if (!TOKEN.matcher(t).matches()) {
            report.add(Message.CUSTOM_PATTERN, method, use, null, where, layerName, t);
            return null;
          }
        }
        AnnotationValue zeros = Report.valueOf(pm, "zeros");
        args.add(new LayerSpec.ForwardArg(params.size(), null));
        params.add(new LayerSpec.CustomParam(n, shape,
            zeros != null && Boolean.TRUE.equals(zeros.getValue())));
      } else if (pm == null && constants.containsKey(n) && p.asType().getKind().isPrimitive()) {
        args.add(new LayerSpec.ForwardArg(-1, constants.get(n)));
      } else {
        report.add(Message.CUSTOM_FORWARD, method, use, null, where, layerName,
            "parameter '" + n + "' of " + forwardType.getSimpleName() + "."
                + fwd.getSimpleName() + " is neither a @Param Sym nor an element of @"
                + layerName);
        return null;
      }
    }
    return new LayerSpec.Custom(layerName, forwardType, fwd.getSimpleName().toString(), input,
        output, dims, params, args);
  }

  private static AnnotationMirror paramMirror(VariableElement p) {
    for (AnnotationMirror m : p.getAnnotationMirrors()) {
      if (((TypeElement) m.getAnnotationType().asElement()).getQualifiedName()
          .contentEquals(PARAM)) {
        return m;
      }
    }
    return null;
  }

  private static AnnotationValue value(AnnotationMirror mirror, String name) {
    AnnotationValue v = Report.valueOf(mirror, name);
    if (v != null) {
      return v;
    }
    for (ExecutableElement e : ElementFilter.methodsIn(
        mirror.getAnnotationType().asElement().getEnclosedElements())) {
      if (e.getSimpleName().contentEquals(name)) {
        return e.getDefaultValue();
      }
    }
    throw new IllegalStateException("no value for " + name);
  }

  private static List<String> strings(AnnotationValue v) {
    List<String> out = new ArrayList<>();
    Object o = v.getValue();
    if (o instanceof List<?> list) {
      for (Object item : list) {
        out.add(String.valueOf(((AnnotationValue) item).getValue()).trim());
      }
    } else {
      out.add(String.valueOf(o).trim());
    }
    return out;
  }
}
