package dev.kiln.processor;

import dev.kiln.annotations.Activation;
import dev.kiln.annotations.Add;
import dev.kiln.annotations.AvgPool;
import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Concat;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Dense;
import dev.kiln.annotations.Dropout;
import dev.kiln.annotations.Embedding;
import dev.kiln.annotations.Flatten;
import dev.kiln.annotations.From;
import dev.kiln.annotations.GlobalAvgPool;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.LayerNorm;
import dev.kiln.annotations.MaxPool;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Reshape;
import dev.kiln.annotations.Softmax;
import java.lang.annotation.Annotation;
import java.lang.annotation.AnnotationTypeMismatchException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeKind;
import javax.lang.model.util.ElementFilter;
import javax.lang.model.util.Elements;

/**
 * Phase one: reads a {@code @Model} interface into a {@link ModelSpec}. It checks only what can
 * be seen one method at a time (return and parameter types, one layer annotation each, attribute
 * values); wiring and shapes are the {@link ShapeChecker}'s.
 */
final class ModelReader {
  static final String SYM = "dev.kiln.annotations.Sym";

  /**
   * The order in which a built-in annotation's attributes are written in messages and tables.
   * Compilers list the elements of an annotation read from a class file in different orders
   * (ecj is not javac), so generated code must not depend on theirs.
   */
  private static final Map<String, List<String>> ATTRIBUTE_ORDER = Map.ofEntries(
      Map.entry(Input.class.getName(), List.of("shape")),
      Map.entry(Dense.class.getName(), List.of("units", "activation", "noBias", "flatten")),
      Map.entry(Activation.class.getName(), List.of("value")),
      Map.entry(Softmax.class.getName(), List.of("axis")),
      Map.entry(Concat.class.getName(), List.of("axis")),
      Map.entry(Conv2D.class.getName(), List.of("filters", "kernel", "stride", "pad",
          "dilation", "activation", "noBias")),
      Map.entry(MaxPool.class.getName(), List.of("kernel", "stride", "pad")),
      Map.entry(AvgPool.class.getName(), List.of("kernel", "stride", "pad")),
      Map.entry(Reshape.class.getName(), List.of("shape")),
      Map.entry(Dropout.class.getName(), List.of("rate")),
      Map.entry(BatchNorm.class.getName(), List.of("eps", "momentum", "axis")),
      Map.entry(LayerNorm.class.getName(), List.of("axis", "eps")),
      Map.entry(Embedding.class.getName(), List.of("inputDim", "outputDim")));

  /** Every layer annotation and how to read it. */
  private static final Map<Class<? extends Annotation>, Function<Annotation, LayerSpec>> LAYERS =
      layers();

  private final Elements elements;
  private final Report report;

  ModelReader(Elements elements, Report report) {
    this.elements = elements;
    this.report = report;
  }

  private static Map<Class<? extends Annotation>, Function<Annotation, LayerSpec>> layers() {
    Map<Class<? extends Annotation>, Function<Annotation, LayerSpec>> m = new LinkedHashMap<>();
    m.put(Input.class, a -> new LayerSpec.Input(TShape.of(((Input) a).shape())));
    m.put(Dense.class, a -> {
      Dense d = (Dense) a;
      return new LayerSpec.Dense(d.units(), d.activation(), d.noBias(), d.flatten());
    });
    m.put(Activation.class, a -> new LayerSpec.Activation(((Activation) a).value()));
    m.put(Softmax.class, a -> new LayerSpec.Softmax(((Softmax) a).axis()));
    m.put(Flatten.class, a -> new LayerSpec.Flatten());
    m.put(Add.class, a -> new LayerSpec.Add());
    m.put(Concat.class, a -> new LayerSpec.Concat(((Concat) a).axis()));
    m.put(Conv2D.class, a -> {
      Conv2D c = (Conv2D) a;
      return new LayerSpec.Conv2D(c.filters(), list(c.kernel()), list(c.stride()),
          list(c.pad()), list(c.dilation()), c.activation(), c.noBias());
    });
    m.put(MaxPool.class, a -> {
      MaxPool p = (MaxPool) a;
      return new LayerSpec.Pool("max", list(p.kernel()), list(p.stride()), list(p.pad()));
    });
    m.put(AvgPool.class, a -> {
      AvgPool p = (AvgPool) a;
      return new LayerSpec.Pool("avg", list(p.kernel()), list(p.stride()), list(p.pad()));
    });
    m.put(GlobalAvgPool.class, a -> new LayerSpec.GlobalAvgPool());
    m.put(Reshape.class, a -> new LayerSpec.Reshape(list(((Reshape) a).shape())));
    m.put(Dropout.class, a -> new LayerSpec.Dropout(((Dropout) a).rate()));
    m.put(BatchNorm.class, a -> {
      BatchNorm b = (BatchNorm) a;
      return new LayerSpec.BatchNorm(b.eps(), b.momentum(), b.axis());
    });
    m.put(LayerNorm.class, a -> {
      LayerNorm l = (LayerNorm) a;
      return new LayerSpec.LayerNorm(l.axis(), l.eps());
    });
    m.put(Embedding.class, a -> {
      Embedding e = (Embedding) a;
      return new LayerSpec.Embedding(e.inputDim(), e.outputDim());
    });
    return m;
  }

  private static List<Integer> list(int[] values) {
    return Arrays.stream(values).boxed().toList();
  }

  /**
   * The model refers to a type or constant javac has not resolved: one not yet generated, or a
   * mistake javac itself reports. Either way the model is not read now.
   */
  static final class Unresolved extends Exception {
    private static final long serialVersionUID = 1L;

    Unresolved() {
      super(null, null, false, false);
    }
  }

  /**
   * Reads {@code type}; returns null when it cannot be a model at all.
   *
   * @throws Unresolved when a node's signature or annotation refers to something javac could not
   *     resolve (it reports that itself); nothing is reported then
   */
  ModelSpec read(TypeElement type) throws Unresolved {
    try {
      return readModel(type);
    } catch (AnnotationTypeMismatchException e) {
      // How javac hands over an annotation value it could not resolve, e.g. units = HIDEN.
      throw new Unresolved();
    }
  }

  private ModelSpec readModel(TypeElement type) throws Unresolved {
    Model model = type.getAnnotation(Model.class);
    AnnotationMirror modelMirror = mirror(type.getAnnotationMirrors(), Model.class);
    String simpleName = type.getSimpleName().toString();
    if (type.getKind() != ElementKind.INTERFACE) {
      report.add(Message.MODEL_NOT_INTERFACE, type, simpleName,
          article(type.getKind().toString().toLowerCase(Locale.ROOT).replace('_', ' ')),
          simpleName);
      return null;
    }
    if (!type.getTypeParameters().isEmpty()) {
      report.add(Message.MODEL_GENERIC, type, simpleName);
      return null;
    }
    List<NodeSpec> nodes = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (ExecutableElement method : ElementFilter.methodsIn(type.getEnclosedElements())) {
      NodeSpec node = readNode(simpleName, method);
      if (node == null) {
        continue;
      }
      if (!names.add(node.name())) {
        report.add(Message.NODE_NAME_TAKEN, method, simpleName, node.name());
        continue;
      }
      nodes.add(node);
    }
    if (nodes.isEmpty() && !report.hasErrors()) {
      report.add(Message.MODEL_EMPTY, type, simpleName);
    }
    String pkg = elements.getPackageOf(type).getQualifiedName().toString();
    return new ModelSpec(type, pkg, simpleName, model.classifier(), modelMirror, nodes);
  }

  /** {@code "an enum"}, {@code "a class"}. */
  private static String article(String noun) {
    return ("aeiou".indexOf(noun.charAt(0)) >= 0 ? "an " : "a ") + noun;
  }

  private NodeSpec readNode(String model, ExecutableElement method) throws Unresolved {
    if (method.getReturnType().getKind() == TypeKind.ERROR || method.getParameters().stream()
        .anyMatch(p -> p.asType().getKind() == TypeKind.ERROR)) {
      throw new Unresolved();
    }
    List<Class<? extends Annotation>> found = new ArrayList<>();
    for (Class<? extends Annotation> c : LAYERS.keySet()) {
      if (method.getAnnotation(c) != null) {
        found.add(c);
      }
    }
    List<AnnotationMirror> custom = CustomLayerReader.customLayers(method);
    boolean isAbstract = method.getModifiers().contains(Modifier.ABSTRACT);
    String name = method.getSimpleName().toString();
    if (found.isEmpty() && custom.isEmpty()) {
      if (isAbstract) {
        report.add(Message.MISSING_LAYER, method, name);
      }
      return null;
    }
    if (found.size() + custom.size() > 1) {
      List<String> names = new ArrayList<>();
      found.forEach(c -> names.add("@" + c.getSimpleName()));
      custom.forEach(m -> names.add("@" + m.getAnnotationType().asElement().getSimpleName()));
      report.add(Message.SEVERAL_LAYERS, method, name, names.size(), String.join(", ", names));
      return null;
    }
    Class<? extends Annotation> layerClass = found.isEmpty() ? null : found.get(0);
    AnnotationMirror mirror = layerClass == null ? custom.get(0)
        : mirror(method.getAnnotationMirrors(), layerClass);
    String text = render(mirror);
    if (!isAbstract) {
      report.add(Message.NODE_NOT_ABSTRACT, method, name, text);
      return null;
    }
    boolean ok = true;
    if (!method.getReturnType().toString().equals(SYM)) {
      report.add(Message.NODE_RETURN_TYPE, method, name, method.getReturnType());
      ok = false;
    }
    List<NodeSpec.Wire> wires = new ArrayList<>();
    for (VariableElement p : method.getParameters()) {
      if (!p.asType().toString().equals(SYM)) {
        report.add(Message.NODE_PARAM_TYPE, p, p.getSimpleName(), name, p.asType());
        ok = false;
      }
      From from = p.getAnnotation(From.class);
      String paramName = p.getSimpleName().toString();
      wires.add(new NodeSpec.Wire(from == null ? paramName : from.value(), paramName, p));
    }
    LayerSpec layer = layerClass == null
        ? new CustomLayerReader(report).read(model + "." + name + "()", method, mirror)
        : LAYERS.get(layerClass).apply(method.getAnnotation(layerClass));
    if (layer == null || !checkAttributes(model, name, layer, method, mirror)) {
      ok = false;
    }
    if (!ok) {
      return null;
    }
    return new NodeSpec(name, layer, wires, method, mirror, text,
        method.getAnnotation(Output.class) != null);
  }

  /** Checks attribute values that need no shapes. */
  private boolean checkAttributes(String model, String name, LayerSpec layer,
      ExecutableElement method, AnnotationMirror mirror) {
    String where = model + "." + name + "()";
    if (layer instanceof LayerSpec.Input in) {
      if (in.shape().rank() == 0) {
        report.add(Message.INPUT_WITHOUT_SHAPE, method, mirror, "shape", name);
        return false;
      }
      for (int i = 0; i < in.shape().rank(); i++) {
        int d = in.shape().dim(i);
        if (d == 0 || d < TShape.BATCH) {
          report.add(Message.BAD_INPUT_DIM, method, mirror, "shape", name, i, d);
          return false;
        }
      }
    } else if (layer instanceof LayerSpec.Dense d) {
      if (d.units() <= 0) {
        report.add(Message.NON_POSITIVE, method, mirror, "units", where + " @Dense", "units",
            d.units());
        return false;
      }
    } else if (layer instanceof LayerSpec.Activation a) {
      if (a.activation() == dev.kiln.annotations.Act.NONE) {
        report.add(Message.BAD_ACTIVATION, method, mirror, "value", where);
        return false;
      }
    } else {
      return new LayerAttributes(report, method, mirror, where + " " + render(mirror))
          .check(layer);
    }
    return true;
  }

  private AnnotationMirror mirror(List<? extends AnnotationMirror> mirrors,
      Class<? extends Annotation> type) {
    for (AnnotationMirror m : mirrors) {
      TypeElement t = (TypeElement) m.getAnnotationType().asElement();
      if (t.getQualifiedName().contentEquals(type.getCanonicalName())) {
        return m;
      }
    }
    return null;
  }

  /**
   * Renders an annotation as it was written, with its explicit values in declaration order:
   * {@code @Dense(units = 128, activation = Act.RELU)}; a shape's -1 is written BATCH.
   */
  static String render(AnnotationMirror mirror) {
    TypeElement type = (TypeElement) mirror.getAnnotationType().asElement();
    List<String> parts = new ArrayList<>();
    Map<? extends ExecutableElement, ? extends AnnotationValue> values =
        mirror.getElementValues();
    List<ExecutableElement> attrs = new ArrayList<>(
        ElementFilter.methodsIn(type.getEnclosedElements()));
    List<String> order = ATTRIBUTE_ORDER.get(type.getQualifiedName().toString());
    if (order != null) {
      attrs.sort(java.util.Comparator.comparingInt(
          a -> order.indexOf(a.getSimpleName().toString())));
    }
    for (ExecutableElement attr : attrs) {
      for (var e : values.entrySet()) {
        if (e.getKey().getSimpleName().equals(attr.getSimpleName())) {
          String n = attr.getSimpleName().toString();
          Object raw = e.getValue().getValue();
          boolean shape = n.equals("shape");
          if (!shape && raw instanceof List<?> one && one.size() == 1) {
            raw = ((AnnotationValue) one.get(0)).getValue();
          }
          String v = renderValue(raw, shape);
          parts.add(n.equals("value") ? v : n + " = " + v);
        }
      }
    }
    String name = "@" + type.getSimpleName();
    return parts.isEmpty() ? name : name + "(" + String.join(", ", parts) + ")";
  }

  private static String renderValue(Object v, boolean shape) {
    if (v instanceof List<?> list) {
      return list.stream().map(o -> renderValue(((AnnotationValue) o).getValue(), shape))
          .collect(Collectors.joining(", ", "{", "}"));
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
    return String.valueOf(v);
  }
}
