package dev.kiln.processor.write;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Dim;
import dev.kiln.annotations.ParamInit;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.emit.NodeSource;
import java.util.Locale;
import javax.annotation.processing.Generated;

/**
 * The types generated code names, and identifier conventions shared by the writers. Types the
 * processor itself has (the annotations, the operator units and their {@code NodeSource}) are named
 * by their class, so a rename fails the processor's own build; the runtime's, which must not be on
 * the processor's class path (it would bring MXNet), by name, each checked against the runtime by
 * {@code RuntimeNamesTest}.
 */
final class Names {
  static final String RUNTIME = "dev.kiln.runtime";
  static final ClassName GRAPH = ClassName.get(RUNTIME + ".graph", "Graph");
  static final ClassName GRAPH_BUILDER = ClassName.get(RUNTIME + ".graph", "GraphBuilder");
  static final ClassName NODE_SOURCE = ClassName.get(NodeSource.class);
  static final ClassName SHAPE = ClassName.get(RUNTIME + ".graph", "Shape");
  static final ClassName DIMENSIONS = ClassName.get(RUNTIME + ".graph", "Dimensions");
  static final ClassName DIMENSION = DIMENSIONS.nestedClass("Dim");
  static final ClassName INPUT_SPEC = ClassName.get(RUNTIME + ".graph", "InputSpec");
  static final ClassName RECURRENT_PARAMETER =
      ClassName.get(RUNTIME + ".exec", "RecurrentParameter");
  static final ClassName KILN_MODEL = ClassName.get(RUNTIME, "KilnModel");
  static final ClassName MODEL_PARAMS = KILN_MODEL.nestedClass("ModelParams");
  static final ClassName MODEL_RUNTIME = ClassName.get(RUNTIME, "ModelRuntime");
  static final ClassName INIT = ClassName.get(RUNTIME, "Init");
  static final ClassName OPTIMIZER = ClassName.get(RUNTIME + ".optim", "Optimizer");
  static final ClassName CLASSIFIER = ClassName.get(RUNTIME + ".train", "Classifier");
  static final ClassName TRAINER = ClassName.get(RUNTIME + ".train", "Trainer");
  static final ClassName PARAMETER = ClassName.get(RUNTIME + ".exec", "Parameter");
  static final ClassName BOUND_EXECUTOR = ClassName.get(RUNTIME + ".exec", "BoundExecutor");
  static final ClassName EXEC_ARRAY = ClassName.get(RUNTIME + ".exec", "ExecArray");
  static final ClassName NDARRAY = ClassName.get("ai.djl.ndarray", "NDArray");
  static final ClassName NDLIST = ClassName.get("ai.djl.ndarray", "NDList");
  static final ClassName SYM = ClassName.get(Sym.class);
  static final ClassName ACT = ClassName.get(Act.class);
  static final ClassName DIM = ClassName.get(Dim.class);
  static final ClassName PARAM_INIT = ClassName.get(ParamInit.class);
  static final ClassName GENERATED = ClassName.get(Generated.class);
  static final String PROCESSOR = "dev.kiln.processor.KilnProcessor";

  private Names() {}

  /** {@code @Generated("dev.kiln.processor.KilnProcessor")}. */
  static AnnotationSpec generated() {
    return AnnotationSpec.builder(GENERATED).addMember("value", "$S", PROCESSOR).build();
  }

  /** {@code hidden_weight} or {@code hiddenWeight} to {@code HIDDEN_WEIGHT}. */
  static String constant(String name) {
    return name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
  }

  /** {@code hidden_weight} to {@code hiddenWeight}. */
  static String camel(String name) {
    StringBuilder b = new StringBuilder();
    boolean up = false;
    for (char c : name.toCharArray()) {
      if (!Character.isLetterOrDigit(c)) {
        up = b.length() > 0;
      } else {
        b.append(up ? Character.toUpperCase(c) : c);
        up = false;
      }
    }
    return b.toString();
  }

  /** {@code probs} to {@code Probs}. */
  static String capitalize(String name) {
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }
}
