package dev.kiln.processor.read;

import dev.kiln.annotations.ParamInit;
import dev.kiln.ops.rule.Message;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.diag.Spelling;
import dev.kiln.processor.model.CustomCall;
import dev.kiln.processor.op.CustomOp;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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
 * model's node, where the user is looking. Everything read here was validated first (see {@link
 * Validation}), so no type or value is unresolved.
 */
final class CustomLayerReader {
  static final String LAYER = "dev.kiln.annotations.Layer";
  static final String PARAM = "dev.kiln.annotations.Param";
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*|[1-9][0-9]*");

  private final Report report;
  private final SourceAnnotations source;

  /** A reader that reports to {@code report} and reads forward bodies from {@code source}. */
  CustomLayerReader(Report report, SourceAnnotations source) {
    this.report = report;
    this.source = source;
  }

  /** Whether {@code mirror}'s type is a custom layer, an annotation type with {@code @Layer}. */
  static boolean isLayer(AnnotationMirror mirror) {
    return layerOf((TypeElement) mirror.getAnnotationType().asElement()) != null;
  }

  /** The {@code @Layer} annotation on {@code type}, or null. */
  static AnnotationMirror layerOf(TypeElement type) {
    return annotation(type.getAnnotationMirrors(), LAYER);
  }

  /** Reads the layer used by {@code method} through {@code use}; null after reporting. */
  CustomOp read(String where, ExecutableElement method, AnnotationMirror use) {
    TypeElement layerType = (TypeElement) use.getAnnotationType().asElement();
    String layerName = layerType.getSimpleName().toString();
    AnnotationMirror layer = layerOf(layerType);
    List<String> input = strings(value(layer, "input"));
    List<String> output = strings(value(layer, "output"));
    List<String> state = strings(value(layer, "state"));
    TypeMirror forward = (TypeMirror) value(layer, "forward").getValue();
    if (forward.getKind() != TypeKind.DECLARED) {
      report.add(
          Message.CUSTOM_FORWARD,
          method,
          use,
          null,
          where,
          layerName,
          "its forward class " + forward + " is not a class");
      return null;
    }
    for (List<String> pattern : List.of(input, output, state)) {
      if (!tokens(where, method, use, layerName, pattern)) {
        return null;
      }
    }
    boolean cell = !state.isEmpty();
    if (cell && !output.equals(state)) {
      report.add(
          Message.CELL_OUTPUT,
          method,
          use,
          null,
          where,
          layerName,
          pattern(output),
          pattern(state),
          quoted(state));
      return null;
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
    String forwardName = forwardType.getSimpleName().toString();
    List<ExecutableElement> candidates =
        ElementFilter.methodsIn(forwardType.getEnclosedElements()).stream()
            .filter(
                m ->
                    m.getModifiers().contains(Modifier.PUBLIC)
                        && m.getModifiers().contains(Modifier.STATIC)
                        && m.getReturnType().toString().equals(ModelReader.SYM))
            .toList();
    if (candidates.size() != 1) {
      report.add(
          Message.CUSTOM_FORWARD,
          method,
          use,
          null,
          where,
          layerName,
          "its forward class "
              + forwardName
              + " must have exactly one public static method "
              + "returning Sym, found "
              + candidates.size());
      return null;
    }
    ExecutableElement fwd = candidates.get(0);
    String fwdName = forwardName + "." + fwd.getSimpleName();
    List<? extends VariableElement> ps = fwd.getParameters();
    if (ps.isEmpty()
        || !ps.get(0).asType().toString().equals(ModelReader.SYM)
        || paramMirror(ps.get(0)) != null) {
      report.add(
          Message.CUSTOM_FORWARD,
          method,
          use,
          null,
          where,
          layerName,
          fwdName
              + " must take the layer's input (a Sym without @Param) as its first "
              + "parameter");
      return null;
    }
    if (cell
        && (ps.size() < 2
            || !ps.get(1).asType().toString().equals(ModelReader.SYM)
            || paramMirror(ps.get(1)) != null)) {
      report.add(
          Message.CUSTOM_FORWARD,
          method,
          use,
          null,
          where,
          layerName,
          fwdName
              + " must take the previous step's state (a Sym without @Param) as its second "
              + "parameter, after the step's input, since @"
              + layerName
              + " declares a state");
      return null;
    }
    List<CustomOp.CustomParam> params = new ArrayList<>();
    List<CustomCall.ForwardArg> args = new ArrayList<>();
    for (VariableElement p : ps.subList(cell ? 2 : 1, ps.size())) {
      String n = p.getSimpleName().toString();
      AnnotationMirror pm = paramMirror(p);
      if (pm != null && p.asType().toString().equals(ModelReader.SYM)) {
        List<String> shape = strings(value(pm, "shape"));
        if (!tokens(where, method, use, layerName, shape)
            || !boundNames(where + " @" + layerName, p, pm, n, shape, input, dims.keySet())) {
          return null;
        }
        String role = snakeCase(n);
        for (CustomOp.CustomParam other : params) {
          if (other.role().equals(role)) {
            report.add(
                Message.CUSTOM_FORWARD,
                method,
                use,
                null,
                where,
                layerName,
                "parameters '"
                    + other.name()
                    + "' and '"
                    + n
                    + "' of "
                    + fwdName
                    + " would "
                    + "both be named "
                    + method.getSimpleName()
                    + "_"
                    + role
                    + "; rename one of "
                    + "them");
            return null;
          }
        }
        CustomOp.CustomParam param = initOf(where, method, use, layerName, n, role, shape, pm, p);
        if (param == null) {
          return null;
        }
        args.add(new CustomCall.ForwardArg(params.size(), null));
        params.add(param);
      } else if (pm == null && constants.containsKey(n) && p.asType().getKind().isPrimitive()) {
        args.add(new CustomCall.ForwardArg(-1, constants.get(n)));
      } else {
        boolean stateLike =
            !cell && p == ps.get(1) && pm == null && p.asType().toString().equals(ModelReader.SYM);
        report.add(
            Message.CUSTOM_FORWARD,
            method,
            use,
            null,
            where,
            layerName,
            "parameter '"
                + n
                + "' of "
                + fwdName
                + " is neither a @Param Sym nor an element "
                + "of @"
                + layerName
                + (stateLike
                    ? "; if it is the previous step's state of a "
                        + "recurrent cell, declare the state's shape: @Layer(state = {...})"
                    : ""));
        return null;
      }
    }
    List<String> syms = new ArrayList<>();
    java.util.Set<String> elements = new java.util.HashSet<>();
    for (VariableElement p : ps) {
      String n = p.getSimpleName().toString();
      syms.add(p.asType().toString().equals(ModelReader.SYM) ? n : null);
      if (dims.containsKey(n) && p.asType().getKind().isPrimitive()) {
        elements.add(n);
      }
    }
    return new CustomOp(
        layerName,
        forwardType,
        fwd.getSimpleName().toString(),
        input,
        output,
        state,
        dims,
        params,
        args,
        source.forwardBody(fwd, syms, elements));
  }

  /**
   * Whether every name in parameter {@code name}'s shape {@code shape} is bound: an int element of
   * the layer ({@code elements}) or a name of its input pattern; reports the first that is not on
   * the {@code @Param} ({@code pm} on {@code p}), with the bound name it most likely meant.
   */
  private boolean boundNames(
      String where,
      VariableElement p,
      AnnotationMirror pm,
      String name,
      List<String> shape,
      List<String> input,
      java.util.Set<String> elements) {
    List<String> known = new ArrayList<>(input);
    known.addAll(elements);
    for (String t : shape) {
      if (Character.isDigit(t.charAt(0)) || known.contains(t)) {
        continue;
      }
      String near = Spelling.closest(t, known);
      report.add(
          Message.CUSTOM_PARAM_DIM,
          p,
          pm,
          "shape",
          where,
          name,
          quoted(shape),
          t,
          where.substring(where.lastIndexOf('@') + 1),
          pattern(input),
          near == null ? "" : "; did you mean '" + near + "'?");
      return false;
    }
    return true;
  }

  /**
   * Parameter {@code name} with how its {@code @Param} {@code pm} says it starts: {@code init}, or
   * {@code ZEROS} for {@code zeros = true}, with {@code value} for {@code CONSTANT}; null after
   * reporting attributes that contradict each other (zeros against init, a value without {@code
   * CONSTANT}) or a value no float can hold.
   */
  private CustomOp.CustomParam initOf(
      String where,
      ExecutableElement method,
      AnnotationMirror use,
      String layerName,
      String name,
      String role,
      List<String> shape,
      AnnotationMirror pm,
      VariableElement declared) {
    AnnotationValue zerosValue = Report.valueOf(pm, "zeros");
    AnnotationValue initValue = Report.valueOf(pm, "init");
    AnnotationValue valueValue = Report.valueOf(pm, "value");
    Boolean zeros = zerosValue == null ? null : (Boolean) zerosValue.getValue();
    String init =
        initValue == null
            ? null
            : ((VariableElement) initValue.getValue()).getSimpleName().toString();
    Double value = valueValue == null ? null : ((Number) valueValue.getValue()).doubleValue();
    List<String> written = new ArrayList<>();
    if (zeros != null) {
      written.add("zeros = " + zeros);
    }
    if (init != null) {
      written.add("init = ParamInit." + init);
    }
    if (value != null) {
      written.add("value = " + value);
    }
    ParamInit effective =
        Boolean.TRUE.equals(zeros)
            ? ParamInit.ZEROS
            : init == null ? ParamInit.MODEL : ParamInit.valueOf(init);
    String problem = null;
    if (zeros != null && init != null && zeros != init.equals("ZEROS")) {
      problem =
          (zeros
                  ? "zeros = true starts it at zero but init = ParamInit."
                      + init
                      + " "
                      + start(init)
                  : "zeros = false says it does not start at zero but init = ParamInit.ZEROS that "
                      + "it does")
              + "; keep the one you mean (zeros = true is the older spelling of init = "
              + "ParamInit.ZEROS)";
    } else if (value != null && effective != ParamInit.CONSTANT) {
      problem =
          "value sets where init = ParamInit.CONSTANT starts, but this parameter starts "
              + start(effective.name())
              + (Boolean.TRUE.equals(zeros)
                  ? " (zeros = true)"
                  : init == null
                      ? " (init = ParamInit.MODEL, the default)"
                      : " (init = ParamInit." + init + ")")
              + "; for a parameter that starts at "
              + value
              + ", write init = ParamInit.CONSTANT, value = "
              + value;
    } else if (value != null && !Float.isFinite(value.floatValue())) {
      problem = "value " + value + " is not a finite float (a parameter holds 32-bit floats)";
    }
    if (problem != null) {
      report.add(
          Message.CUSTOM_PARAM_INIT,
          method,
          use,
          null,
          where,
          name,
          layerName,
          String.join(", ", written),
          problem);
      return null;
    }
    return new CustomOp.CustomParam(
        name, role, shape, effective, value == null ? 0 : value, declared, pm);
  }

  /** How a parameter of {@code init} starts, e.g. {@code at one}. */
  private static String start(String init) {
    return switch (init) {
      case "ZEROS" -> "at zero";
      case "ONES" -> "at one";
      case "CONSTANT" -> "at value";
      default -> "from the model's initialiser";
    };
  }

  /** {@code [batch, hidden]}: a shape pattern as messages write it. */
  private static String pattern(List<String> tokens) {
    return "[" + String.join(", ", tokens) + "]";
  }

  /** {@code {"batch", "hidden"}}: a shape pattern as the user writes it. */
  private static String quoted(List<String> tokens) {
    return tokens.stream()
        .map(t -> '"' + t + '"')
        .collect(java.util.stream.Collectors.joining(", ", "{", "}"));
  }

  /**
   * {@code gateWeight} to {@code gate_weight}, {@code weightIH} to {@code weight_ih}: a Java
   * parameter name as the snake-case part of an MXNet parameter name, as built-in layers name
   * theirs ({@code moving_mean}).
   */
  static String snakeCase(String name) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c) && i > 0 && name.charAt(i - 1) != '_') {
        char before = name.charAt(i - 1);
        boolean wordStart =
            Character.isLowerCase(before)
                || Character.isDigit(before)
                || (i + 1 < name.length() && Character.isLowerCase(name.charAt(i + 1)));
        if (wordStart) {
          b.append('_');
        }
      }
      b.append(c);
    }
    return b.toString().toLowerCase(Locale.ROOT);
  }

  /** Whether every token of {@code pattern} is a name or a positive number; reports otherwise. */
  private boolean tokens(
      String where,
      ExecutableElement method,
      AnnotationMirror use,
      String layerName,
      List<String> pattern) {
    for (String t : pattern) {
      if (!TOKEN.matcher(t).matches()) {
        report.add(Message.CUSTOM_PATTERN, method, use, null, where, layerName, t);
        return false;
      }
    }
    return true;
  }

  private static AnnotationMirror paramMirror(VariableElement p) {
    return annotation(p.getAnnotationMirrors(), PARAM);
  }

  private static AnnotationMirror annotation(
      List<? extends AnnotationMirror> mirrors, String qualifiedName) {
    for (AnnotationMirror m : mirrors) {
      if (((TypeElement) m.getAnnotationType().asElement())
          .getQualifiedName()
          .contentEquals(qualifiedName)) {
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
    for (ExecutableElement e :
        ElementFilter.methodsIn(mirror.getAnnotationType().asElement().getEnclosedElements())) {
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
