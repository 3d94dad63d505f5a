package dev.kiln.differential;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One model under test: its Java sources (the {@code @Model} interface and any custom layers it
 * uses, keyed by qualified type name) and where it came from.
 *
 * @param name a short name for test reports, e.g. {@code Gen17} or {@code Issue8Conv32}
 * @param modelInterface the {@code @Model} interface's qualified name
 * @param seed the generator seed that drew it (for a regression source, the one it was found with,
 *     or 0); it also seeds the checks' batch sizes, inputs and head gradients
 * @param regression whether this is a kept regression source rather than a fresh draw
 * @param init the initialiser to create it with (see {@link DiffModel#INITS})
 * @param sources every source file, qualified type name to text; the model comes first
 * @param features what the generator drew (layer and attribute tags), for coverage reports
 * @param resources files the sources read when they compile (an imported ONNX model), by class-path
 *     resource name
 */
record ModelCase(
    String name,
    String modelInterface,
    long seed,
    boolean regression,
    String init,
    Map<String, String> sources,
    List<String> features,
    Map<String, byte[]> resources) {
  /** Copies the collections. */
  ModelCase {
    sources = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(sources));
    features = List.copyOf(features);
    resources = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(resources));
  }

  /** A model of Java sources alone. */
  ModelCase(
      String name,
      String modelInterface,
      long seed,
      boolean regression,
      String init,
      Map<String, String> sources,
      List<String> features) {
    this(name, modelInterface, seed, regression, init, sources, features, Map.of());
  }

  /** The ONNX file the model imports (a resource path ending in {@code .onnx}), or null. */
  String onnxResource() {
    return resources.keySet().stream().filter(r -> r.endsWith(".onnx")).findFirst().orElse(null);
  }

  /** {@code Gen17 (seed 17)} or {@code Issue8Conv32 (regression, seed 0)}. */
  String label() {
    return name + (regression ? " (regression, seed " : " (seed ") + seed + ")";
  }

  /** Every source, each under a header naming its type, for failure messages. */
  String listing() {
    return sources.entrySet().stream()
        .map(e -> "// ---- " + e.getKey().replace('.', '/') + ".java\n" + e.getValue())
        .collect(Collectors.joining("\n"));
  }
}
