package dev.kiln.processor.write;

import com.palantir.javapoet.AnnotationSpec;
import com.palantir.javapoet.ClassName;
import java.util.Locale;

/** Runtime type names and identifier conventions shared by the writers. */
final class Names {
  static final String RUNTIME = "dev.kiln.runtime";
  static final ClassName GRAPH = ClassName.get(RUNTIME + ".graph", "Graph");
  static final ClassName GRAPH_BUILDER = ClassName.get(RUNTIME + ".graph", "GraphBuilder");
  static final ClassName NODE_SOURCE = ClassName.get(RUNTIME + ".graph", "NodeSource");
  static final ClassName SHAPE = ClassName.get(RUNTIME + ".graph", "Shape");
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
  static final ClassName LOSS_SPEC = ClassName.get(RUNTIME + ".graph", "LossSpec");
  static final ClassName PARAMETER = ClassName.get(RUNTIME + ".exec", "Parameter");
  static final ClassName BOUND_EXECUTOR = ClassName.get(RUNTIME + ".exec", "BoundExecutor");
  static final ClassName EXEC_ARRAY = ClassName.get(RUNTIME + ".exec", "ExecArray");
  static final ClassName NDARRAY = ClassName.get("ai.djl.ndarray", "NDArray");
  static final ClassName NDLIST = ClassName.get("ai.djl.ndarray", "NDList");
  static final ClassName SYM = ClassName.get("dev.kiln.annotations", "Sym");
  static final ClassName ACT = ClassName.get("dev.kiln.annotations", "Act");
  static final ClassName DIM = ClassName.get("dev.kiln.annotations", "Dim");
  static final ClassName PARAM_INIT = ClassName.get("dev.kiln.annotations", "ParamInit");
  static final ClassName GENERATED = ClassName.get("javax.annotation.processing", "Generated");
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
      if (c == '_') {
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
