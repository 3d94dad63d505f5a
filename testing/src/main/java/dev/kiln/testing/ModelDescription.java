package dev.kiln.testing;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * What Kiln's processor inferred for one {@code @Model}, read from the description it writes beside
 * the generated classes when asked to ({@code -Akiln.describe}, which {@link KilnCompiler} always
 * passes): the nodes in declaration order, each node's output shape and parameter count, and every
 * parameter's and auxiliary state's shape. A shape is an {@code int[]} in which {@code -1} stands
 * for {@code Dim.BATCH} and {@code -5} for {@code Dim.STEPS}, as in the annotations; a free
 * dimension ({@code @FreeDim int H = -10}) is its constant's value, and a size derived from free
 * dimensions ({@code H / 2 - 2}) is {@link #FREE}, its expression in {@link #shapeText}.
 */
public final class ModelDescription {
  /** A size derived from free dimensions in {@link #shape}: its expression is in the text. */
  public static final int FREE = Integer.MIN_VALUE;

  private final String name;
  private final List<String> nodes;
  private final List<String> inputs;
  private final List<String> outputs;
  private final long parameterCount;
  private final Map<String, String> layers = new LinkedHashMap<>();
  private final Map<String, int[]> shapes = new LinkedHashMap<>();
  private final Map<String, String> shapeTexts = new LinkedHashMap<>();
  private final Map<String, Long> nodeParameterCounts = new LinkedHashMap<>();
  private final Map<String, int[]> parameters = new LinkedHashMap<>();
  private final Map<String, int[]> auxiliaryStates = new LinkedHashMap<>();

  private ModelDescription(Properties p) {
    name = p.getProperty("model");
    nodes = list(p.getProperty("nodes"));
    inputs = list(p.getProperty("inputs"));
    outputs = list(p.getProperty("outputs"));
    parameterCount = Long.parseLong(p.getProperty("params"));
    for (String node : nodes) {
      layers.put(node, p.getProperty("node." + node + ".layer"));
      shapes.put(node, dims(p.getProperty("node." + node + ".shape")));
      shapeTexts.put(node, p.getProperty("node." + node + ".shapeText"));
      nodeParameterCounts.put(node, Long.parseLong(p.getProperty("node." + node + ".params")));
      for (String param : list(p.getProperty("node." + node + ".paramNames"))) {
        parameters.put(param, dims(p.getProperty("param." + param)));
      }
      for (String aux : list(p.getProperty("node." + node + ".auxNames"))) {
        auxiliaryStates.put(aux, dims(p.getProperty("aux." + aux)));
      }
    }
  }

  /** Parses the text of a {@code <Model>.kiln.properties} file. */
  static ModelDescription parse(String text) {
    Properties p = new Properties();
    try {
      p.load(new StringReader(text));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ModelDescription(p);
  }

  /**
   * Returns the model interface's qualified name.
   *
   * @return for example {@code demo.FashionMlp}
   */
  public String name() {
    return name;
  }

  /**
   * Returns every node, inputs included, in declaration order.
   *
   * @return the node names
   */
  public List<String> nodes() {
    return nodes;
  }

  /**
   * Returns the inputs, in declaration order.
   *
   * @return the input names
   */
  public List<String> inputs() {
    return inputs;
  }

  /**
   * Returns the outputs, in declaration order.
   *
   * @return the output names
   */
  public List<String> outputs() {
    return outputs;
  }

  /**
   * Returns the inferred output shape of a node (the declared shape of an input).
   *
   * @param node the node's name
   * @return a new array, {@code -1} for {@code BATCH}, a free dimension's constant for it, {@link
   *     #FREE} for a size derived from free dimensions
   * @throws IllegalArgumentException if the model has no such node
   */
  public int[] shape(String node) {
    return known(shapes, node, "node").clone();
  }

  /**
   * Returns a node's shape as Kiln's messages write it.
   *
   * @param node the node's name
   * @return for example {@code [BATCH, 128]}, {@code [BATCH, 16, H / 2 - 2, W / 2 - 2]}
   * @throws IllegalArgumentException if the model has no such node
   */
  public String shapeText(String node) {
    return known(shapeTexts, node, "node");
  }

  /**
   * Returns the layer annotation a node was declared with, as written.
   *
   * @param node the node's name
   * @return for example {@code @Dense(units = 128, activation = Act.RELU)}
   * @throws IllegalArgumentException if the model has no such node
   */
  public String layer(String node) {
    return known(layers, node, "node");
  }

  /**
   * Returns the number of learnable values of the whole model (auxiliary states, such as a batch
   * norm's moving averages, are not counted), as the model's layer table gives it.
   *
   * @return the parameter count
   */
  public long parameterCount() {
    return parameterCount;
  }

  /**
   * Returns the number of learnable values of one node.
   *
   * @param node the node's name
   * @return its parameter count, 0 for a node without parameters
   * @throws IllegalArgumentException if the model has no such node
   */
  public long parameterCount(String node) {
    return known(nodeParameterCounts, node, "node");
  }

  /**
   * Returns every learnable parameter with its shape, by MXNet name, in node order.
   *
   * @return for example {@code hidden_weight -> [128, 784]}; the arrays are copies
   */
  public Map<String, int[]> parameters() {
    return copy(parameters);
  }

  /**
   * Returns the shape of one parameter.
   *
   * @param name its MXNet name, {@code hidden_weight}
   * @return a new array
   * @throws IllegalArgumentException if the model has no such parameter
   */
  public int[] parameterShape(String name) {
    return known(parameters, name, "parameter").clone();
  }

  /**
   * Returns every auxiliary state (a batch norm's moving mean and variance) with its shape.
   *
   * @return for example {@code bn1_moving_mean -> [20]}; the arrays are copies
   */
  public Map<String, int[]> auxiliaryStates() {
    return copy(auxiliaryStates);
  }

  /**
   * Returns the model's name and its nodes with their shapes.
   *
   * @return for example {@code demo.FashionMlp[pixels [BATCH, 784], hidden [BATCH, 128], ...]}
   */
  @Override
  public String toString() {
    return name
        + shapeTexts.entrySet().stream()
            .map(e -> e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", ", "[", "]"));
  }

  private <T> T known(Map<String, T> map, String key, String what) {
    T value = map.get(key);
    if (value == null) {
      throw new IllegalArgumentException(
          name + " has no " + what + " '" + key + "'; its " + what + "s are " + map.keySet());
    }
    return value;
  }

  private static Map<String, int[]> copy(Map<String, int[]> map) {
    Map<String, int[]> copy = new LinkedHashMap<>();
    map.forEach((k, v) -> copy.put(k, v.clone()));
    return Collections.unmodifiableMap(copy);
  }

  private static List<String> list(String value) {
    return value == null || value.isEmpty() ? List.of() : List.of(value.split(","));
  }

  private static int[] dims(String value) {
    return value == null || value.isEmpty()
        ? new int[0]
        : Arrays.stream(value.split(","))
            .mapToInt(d -> d.equals("free") ? FREE : Integer.parseInt(d))
            .toArray();
  }
}
