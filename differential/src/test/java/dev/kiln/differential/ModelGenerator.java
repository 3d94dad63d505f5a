package dev.kiln.differential;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Draws random <em>valid</em> Kiln models: one {@code long} seed gives one {@code @Model} interface
 * (package {@value #PACKAGE}, named {@code Gen<seed>}) and the custom layers it uses.
 *
 * <p>The generator tracks every node's shape itself with the processor's rules ({@code ShapeRules},
 * {@code LayerRules}, which mirror MXNet 1.9.1's operators) and draws only attribute values those
 * rules accept, so the processor rejecting a drawn model is a generator bug (or a processor bug).
 * It covers the whole layer library: {@code @Dense} (units, activation, noBias, flatten),
 * {@code @Conv2D} (1 to 64 filters, kernels 1 to 7, stride, pad, dilation, groups, activation,
 * noBias; one value or {@code {h, w}}), {@code @Conv1D} over rank-3 tensors and {@code @Deconv2D}
 * (stride, pad, outputPad, groups; no dilation, which Kiln refuses without oneDNN, as the second
 * JVM runs) drawn from a {@code Random} of their own, {@code @MaxPool} and {@code @AvgPool}
 * (kernel, stride, pad; over rank-3 tensors too and under the full convention, drawn from a {@code
 * Random} of their own, see {@link #newerPool}), {@code @GlobalAvgPool} and {@code @GlobalMaxPool}
 * (rank 3 to 5), {@code @Lrn} and {@code @PRelu} (from the pooling {@code Random} too),
 * {@code @Flatten}, {@code @Reshape} (every special value), {@code @Dropout}, {@code @BatchNorm}
 * and {@code @LayerNorm} (axis, eps, momentum), {@code @Embedding} over an indices input,
 * {@code @Activation}, {@code @Softmax} (axis), {@code @Add} and {@code @Concat} (two or three
 * operands, the same node twice through {@code @From}), the element-wise and tensor operations
 * ({@code @Clip}; {@code @Multiply}, {@code @Subtract}, {@code @Divide}, {@code @Maximum}
 * broadcasting; {@code @MatMul} of stacks of matrices; {@code @Transpose} and {@code @Slice} of the
 * axes after the batch; {@code @Mean} and {@code @Sum} over them; drawn from a {@code Random} of
 * their own), loss heads ending a model (see {@link #lossHead}), {@code @Frozen}, {@code @Output},
 * several inputs and outputs, classifiers, declaration order shuffled, custom {@code @Layer}s whose
 * forward bodies are drawn from the whole symbolic API, and, in about one model in six,
 * {@code @Lstm}, {@code @Gru} and {@code @Rnn} (every attribute) over sequences of 1 to 6 steps or
 * {@code Dim.STEPS} (see {@link #recurrentPart}).
 *
 * <p>Sizes stay small so that a model runs in well under a second: batch sizes are the caller's,
 * spatial sizes at most about 16, at most {@value #MAX_VALUES} values per example in any tensor and
 * about {@value #MAC_BUDGET} multiply-adds per example in all, but convolutions do draw up to 64
 * filters and 7x7 kernels. Every model keeps the batch as its first dimension everywhere (no
 * softmax, concatenation or reshape across it), so rows of a batch stay independent in inference.
 */
final class ModelGenerator {
  /** The package of every generated model. */
  static final String PACKAGE = "gen";

  /** Largest number of values per example in any tensor. */
  static final int MAX_VALUES = 8192;

  /** Multiply-adds per example the convolutions and dense layers may spend in all. */
  static final long MAC_BUDGET = 3_000_000;

  private static final int MAX_SPATIAL = 20;

  /** {@code Dim.STEPS}. */
  private static final int STEPS = -5;

  private static final String[] ACTS = {"RELU", "SIGMOID", "TANH", "SOFTRELU", "SOFTSIGN"};

  /**
   * The activations added after the first five (MXNet's {@code LeakyReLU} and Kiln's compositions),
   * drawn by {@link #actRng} in place of one of {@link #ACTS} in about a third of the draws, so
   * that every seed still draws the model it drew before apart from its activations.
   */
  private static final String[] NEWER_ACTS = {"GELU", "SILU", "LEAKY_RELU", "ELU", "SELU", "MISH"};

  /**
   * Valid Java names that the generated classes also use for their own fields, locals and methods;
   * the processor must keep them apart.
   */
  static final List<String> AWKWARD_NAMES =
      List.of(
          "runtime",
          "out",
          "graph",
          "builder",
          "params",
          "input",
          "exec",
          "model",
          "prefix",
          "init",
          "seed",
          "training",
          "grads",
          "value",
          "values",
          "shape",
          "e",
          "x",
          "build",
          "forward",
          "summary",
          "create",
          "load");

  /** A node of the model being drawn. */
  private static final class Node {
    final String name;
    final String layer;
    final List<String> annotations = new ArrayList<>();
    final List<Node> inputs;
    final int[] shape;
    final boolean isInput;
    boolean indices;
    boolean hasParams;
    int consumers;
    boolean output;

    Node(
        String name,
        String layer,
        String annotation,
        List<Node> inputs,
        int[] shape,
        boolean isInput) {
      this.name = name;
      this.layer = layer;
      this.annotations.add(annotation);
      this.inputs = inputs;
      this.shape = shape;
      this.isInput = isInput;
    }

    int rank() {
      return shape.length;
    }

    /** Whether a dimension is {@code Dim.STEPS} (a sequence of any length). */
    boolean steps() {
      return Arrays.stream(shape).anyMatch(d -> d == STEPS);
    }

    /** Values per example: the product of every dimension after the batch. */
    int rest() {
      int n = 1;
      for (int i = 1; i < shape.length; i++) {
        n *= shape[i];
      }
      return n;
    }

    int last() {
      return shape[shape.length - 1];
    }
  }

  /** Percent of models that get recurrent layers (drawn from a generator of their own). */
  static final int RECURRENT_PERCENT = 18;

  /** The constant number of steps a drawn sequence has at most. */
  private static final int MAX_STEPS = 6;

  /** What a {@code Dim.STEPS} dimension counts as for the budgets: the most the checks bind. */
  private static final int STEPS_BOUND = 6;

  private final long seed;

  /**
   * The generator of every draw; while the recurrent part is drawn it is {@link #recurrentRng}, so
   * that a model without recurrent layers is the one this seed drew before they were added.
   */
  private Random rng;

  private final Random recurrentRng;

  /** Chooses the newer activations; see {@link #NEWER_ACTS}. */
  private final Random actRng;

  /**
   * Chooses and draws the newer convolutions ({@code @Conv1D}, {@code @Deconv2D}, groups), so that
   * a model without them is the one this seed drew before they were added.
   */
  private final Random convRng;

  /** Chooses whether a model ends in a loss head, and which; see {@link #lossHead}. */
  private final Random lossRng;

  /**
   * Chooses and draws the layers of the pooling part of issue 21 (1-D pooling, global max pooling,
   * the full convention, local response normalisation, the parametric ReLU), so that a model
   * without them is the one this seed drew before they were added.
   */
  private final Random poolRng;

  /**
   * Chooses and draws the element-wise and tensor operations ({@code @Clip}, {@code @Multiply},
   * {@code @Subtract}, {@code @Divide}, {@code @Maximum}, {@code @MatMul}, {@code @Transpose},
   * {@code @Slice}), so that a model without them is the one this seed drew before they were added.
   */
  private final Random tensorRng;

  /**
   * Chooses and draws attention ({@code @MultiHeadAttention}: self and cross, with valid lengths,
   * causal) and {@code @PositionalEmbedding}, so that a model without them is the one this seed
   * drew before they were added.
   */
  private final Random attentionRng;

  private final String model;
  private final List<Node> nodes = new ArrayList<>();
  private final Map<String, String> layers = new LinkedHashMap<>();
  private final Set<String> names = new TreeSet<>();
  private final List<String> features = new ArrayList<>();
  private long macs;
  private int counter;

  private ModelGenerator(long seed) {
    this.seed = seed;
    this.rng = new Random(seed * 0x9E3779B97F4A7C15L + 7);
    this.recurrentRng = new Random(seed * 0xD1B54A32D192ED03L + 13);
    this.actRng = new Random(seed * 0x94D049BB133111EBL + 29);
    this.convRng = new Random(seed * 0xBF58476D1CE4E5B9L + 31);
    this.lossRng = new Random(seed * 0x2545F4914F6CDD1DL + 37);
    this.poolRng = new Random(seed * 0xC2B2AE3D27D4EB4FL + 37);
    this.tensorRng = new Random(seed * 0x9FB21C651E98DF25L + 43);
    this.attentionRng = new Random(seed * 0xE7037ED1A0B428DBL + 47);
    this.model = "Gen" + seed;
  }

  /** The model drawn from {@code seed}. */
  static ModelCase generate(long seed) {
    return new ModelGenerator(seed).draw();
  }

  private ModelCase draw() {
    int inputCount = 1 + (rng.nextInt(100) < 25 ? 1 : 0) + (rng.nextInt(100) < 8 ? 1 : 0);
    for (int i = 0; i < inputCount; i++) {
      input();
    }
    int steps = 2 + rng.nextInt(10);
    for (int s = 0; s < steps; s++) {
      step(pickSource());
    }
    for (Node n : List.copyOf(nodes)) {
      if (n.isInput && n.consumers == 0) {
        step(n);
      }
    }
    boolean classifier = rng.nextInt(100) < 40;
    if (recurrentRng.nextInt(100) < RECURRENT_PERCENT) {
      Random main = rng;
      rng = recurrentRng;
      try {
        recurrentPart(classifier);
      } finally {
        rng = main;
      }
    }
    inputCount = (int) nodes.stream().filter(n -> n.isInput).count();
    boolean strict = false;
    if (classifier) {
      // classifier = true only where the processor allows it: a model of one input (and the
      // classifier view reads examples of a fixed size, so no Dim.STEPS).
      strict = rng.nextBoolean() && inputCount == 1 && nodes.stream().noneMatch(Node::steps);
      classifierHead();
    } else {
      finishOutputs();
      lossHead();
    }
    for (Node n : nodes) {
      if (n.hasParams && !n.isInput && rng.nextInt(100) < 12) {
        n.annotations.add(0, "@Frozen");
        features.add("Frozen");
      }
    }
    features.add("inputs=" + inputCount);
    features.add("outputs=" + nodes.stream().filter(this::isOutput).count());
    if (classifier) {
      features.add(strict ? "classifier=true" : "classifier-shaped");
    }
    String init = DiffModel.INITS.get(rng.nextInt(DiffModel.INITS.size()));
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put(PACKAGE + "." + model, render(strict));
    sources.putAll(layers);
    return new ModelCase(model, PACKAGE + "." + model, seed, false, init, sources, features);
  }

  // ---------------------------------------------------------------------------------------------
  // Inputs

  private void input() {
    int kind = rng.nextInt(100);
    if (kind < 40) {
      int c = rng.nextInt(100) < 70 ? 1 + rng.nextInt(3) : 4 + rng.nextInt(5);
      int h = spatial();
      int w = rng.nextInt(100) < 60 ? h : spatial();
      add(inputNode(new int[] {-1, c, h, w}), "Input.rank4");
    } else if (kind < 62) {
      add(inputNode(new int[] {-1, 1 + rng.nextInt(32)}), "Input.rank2");
    } else if (kind < 80) {
      add(inputNode(new int[] {-1, 1 + rng.nextInt(6), 1 + rng.nextInt(12)}), "Input.rank3");
    } else if (kind < 85) {
      add(
          inputNode(
              new int[] {
                -1, 1 + rng.nextInt(3), 1 + rng.nextInt(4), 1 + rng.nextInt(4), 1 + rng.nextInt(4)
              }),
          "Input.rank5");
    } else {
      int[] shape =
          rng.nextInt(100) < 80
              ? new int[] {-1, 1 + rng.nextInt(6)}
              : new int[] {-1, 1 + rng.nextInt(3), 1 + rng.nextInt(4)};
      Node in = inputNode(shape);
      in.indices = true;
      add(in, "Input.indices");
      embedding(in);
    }
  }

  private int spatial() {
    int r = rng.nextInt(100);
    return r < 10 ? 1 + rng.nextInt(3) : r < 80 ? 4 + rng.nextInt(9) : 13 + rng.nextInt(4);
  }

  private Node inputNode(int[] shape) {
    // Awkward names must work for inputs too (regressions/InputNamedBuild).
    String name = name("in");
    return new Node(
        name, "Input", "@Input(shape = " + shapeText(shape) + ")", List.of(), shape, true);
  }

  private static String shapeText(int[] shape) {
    return Arrays.stream(shape)
        .mapToObj(d -> d == -1 ? "BATCH" : d == STEPS ? "STEPS" : Integer.toString(d))
        .collect(Collectors.joining(", ", "{", "}"));
  }

  // ---------------------------------------------------------------------------------------------
  // The main loop

  private Node pickSource() {
    List<Node> usable = nodes.stream().filter(n -> !n.indices && !n.steps()).toList();
    int r = rng.nextInt(100);
    if (r < 50) {
      return usable.get(usable.size() - 1);
    }
    List<Node> dangling = usable.stream().filter(n -> n.consumers == 0).toList();
    if (r < 80 && !dangling.isEmpty()) {
      return dangling.get(rng.nextInt(dangling.size()));
    }
    return usable.get(rng.nextInt(usable.size()));
  }

  /** Applies one drawn operation to {@code x}; retries with another when one does not apply. */
  private void step(Node x) {
    if (newerConv(x) != null || newerPool(x) != null || attention(x) != null) {
      return;
    }
    if (tensorOp(x) != null) {
      return;
    }
    for (int attempt = 0; attempt < 20; attempt++) {
      String op = pickOp(x);
      Node made =
          switch (op) {
            case "Dense" -> dense(x, -1);
            case "Conv2D" -> conv(x);
            case "MaxPool", "AvgPool" -> pool(x, op);
            case "GlobalAvgPool" -> globalPool(x);
            case "Flatten" -> flatten(x);
            case "Reshape" -> reshape(x);
            case "Dropout" -> dropout(x);
            case "BatchNorm" -> batchNorm(x);
            case "LayerNorm" -> layerNorm(x);
            case "Activation" -> activation(x);
            case "Softmax" -> softmax(x);
            case "Add" -> addNode(x);
            case "Concat" -> concat(x);
            case "Custom" -> custom(x);
            default -> throw new IllegalStateException(op);
          };
      if (made != null) {
        return;
      }
    }
    activation(x);
  }

  private String pickOp(Node x) {
    Map<String, Integer> w = new LinkedHashMap<>();
    switch (x.rank()) {
      case 4 -> {
        w.put("Conv2D", 30);
        w.put("MaxPool", 10);
        w.put("AvgPool", 8);
        w.put("GlobalAvgPool", 4);
        w.put("BatchNorm", 8);
        w.put("LayerNorm", 3);
        w.put("Flatten", 4);
        w.put("Reshape", 5);
        w.put("Dense", 6);
      }
      case 3 -> {
        w.put("Dense", 15);
        w.put("LayerNorm", 6);
        w.put("BatchNorm", 4);
        w.put("GlobalAvgPool", 3);
        w.put("Flatten", 5);
        w.put("Reshape", 8);
        w.put("Custom", 6);
      }
      case 2 -> {
        w.put("Dense", 25);
        w.put("BatchNorm", 5);
        w.put("LayerNorm", 5);
        w.put("Reshape", 8);
        w.put("Custom", 12);
      }
      default -> {
        w.put("GlobalAvgPool", 10);
        w.put("BatchNorm", 3);
        w.put("Flatten", 4);
        w.put("Reshape", 3);
        w.put("Dense", 3);
      }
    }
    w.put("Activation", 5);
    w.put("Dropout", 4);
    w.put("Softmax", 2);
    w.put("Add", 6);
    w.put("Concat", 6);
    int total = w.values().stream().mapToInt(Integer::intValue).sum();
    int r = rng.nextInt(total);
    for (Map.Entry<String, Integer> e : w.entrySet()) {
      r -= e.getValue();
      if (r < 0) {
        return e.getKey();
      }
    }
    throw new IllegalStateException();
  }

  // ---------------------------------------------------------------------------------------------
  // Layers

  /** {@code @Dense}; {@code units} is drawn when negative, else fixed (or no node). */
  private Node dense(Node x, int units) {
    return dense(x, units, x.rank() == 2 || rng.nextInt(100) < 65);
  }

  /** {@code @Dense} with {@code flatten} as given. */
  private Node dense(Node x, int units, boolean flatten) {
    int in = flatten ? x.rest() : x.last();
    int rows = flatten ? 1 : x.rest() / x.last();
    int u = units > 0 ? units : pickUnits();
    long left = MAC_BUDGET - macs;
    if ((long) in * u * rows > left) {
      if (units > 0) {
        return null;
      }
      u = (int) Math.max(1, Math.min(u, left / ((long) in * rows)));
    }
    int[] shape;
    if (flatten) {
      shape = new int[] {-1, u};
    } else {
      shape = x.shape.clone();
      shape[shape.length - 1] = u;
    }
    if (values(shape) > MAX_VALUES) {
      return null;
    }
    macs += (long) in * u * rows;
    Attrs a = new Attrs("Dense").put("units", u);
    String act = maybeAct(40);
    if (act != null) {
      a.put("activation", "Act." + act);
      features.add("Dense.activation=" + act);
    }
    if (rng.nextInt(100) < 20) {
      a.put("noBias", true);
      features.add("Dense.noBias");
    }
    if (!flatten) {
      a.put("flatten", false);
      features.add("Dense.flatten=false");
    } else if (rng.nextInt(100) < 10) {
      a.put("flatten", true);
    }
    features.add("Dense");
    Node n = node("dense", "Dense", a.text(), List.of(x), shape);
    n.hasParams = true;
    return n;
  }

  private int pickUnits() {
    int r = rng.nextInt(100);
    return r < 10 ? 1 + rng.nextInt(2) : r < 85 ? 3 + rng.nextInt(14) : 17 + rng.nextInt(16);
  }

  private String maybeAct(int nonePercent) {
    return rng.nextInt(100) < nonePercent ? null : anAct();
  }

  /** One activation: of {@link #ACTS} from the main draws, sometimes one of {@link #NEWER_ACTS}. */
  private String anAct() {
    String act = ACTS[rng.nextInt(ACTS.length)];
    return actRng.nextInt(3) == 0 ? NEWER_ACTS[actRng.nextInt(NEWER_ACTS.length)] : act;
  }

  private Node conv(Node x) {
    if (x.rank() != 4) {
      return null;
    }
    int c = x.shape[1];
    int[] pad = pair(() -> rng.nextInt(100) < 55 ? 0 : rng.nextInt(4));
    int[] kernel = new int[2];
    int[] dilation = new int[2];
    int[] stride = pair(() -> rng.nextInt(100) < 65 ? 1 : 2 + rng.nextInt(2));
    boolean dilate = rng.nextInt(100) < 20;
    boolean kernelPair = rng.nextInt(100) < 35;
    boolean dilationPair = rng.nextBoolean();
    int[] out = new int[2];
    for (int axis = 0; axis < 2; axis++) {
      int padded = x.shape[2 + axis] + 2 * pad[axis];
      int k =
          axis == 1 && !kernelPair && kernel[0] <= padded
              ? kernel[0]
              : 1 + rng.nextInt(Math.min(7, padded));
      int maxD = k == 1 ? 3 : Math.min(3, (padded - 1) / (k - 1));
      int d =
          !dilate
              ? 1
              : axis == 1 && !dilationPair && dilation[0] <= maxD
                  ? dilation[0]
                  : 1 + rng.nextInt(maxD);
      int span = d * (k - 1) + 1;
      kernel[axis] = k;
      dilation[axis] = d;
      out[axis] = (padded - span) / stride[axis] + 1;
      if (out[axis] > MAX_SPATIAL) {
        return null;
      }
    }
    // Multiples of 8 as real networks use (and oneDNN's blocked kernels need: only then does it
    // reorder the weight in place, which issue 8 was about), and any other count.
    int r = rng.nextInt(100);
    int filters =
        r < 45 ? 8 * (1 + rng.nextInt(8)) : r < 65 ? 32 + rng.nextInt(33) : 1 + rng.nextInt(31);
    long perFilter = (long) c * kernel[0] * kernel[1] * out[0] * out[1];
    long left = MAC_BUDGET - macs;
    while (filters > 1
        && (perFilter * filters > left || (long) filters * out[0] * out[1] > MAX_VALUES)) {
      filters = filters > 8 && filters % 8 == 0 ? filters - 8 : filters / 2;
    }
    if ((long) filters * out[0] * out[1] > MAX_VALUES) {
      return null;
    }
    int groups = groups(c, filters);
    macs += perFilter / groups * filters;
    Attrs a = new Attrs("Conv2D").put("filters", filters).put("kernel", window(kernel, kernelPair));
    if (groups > 1) {
      a.put("groups", groups);
      features.add("Conv2D.groups");
    }
    if (stride[0] != 1 || stride[1] != 1 || rng.nextInt(100) < 10) {
      a.put("stride", window(stride, stride[0] != stride[1] || rng.nextBoolean()));
      features.add("Conv2D.stride");
    }
    if (pad[0] != 0 || pad[1] != 0 || rng.nextInt(100) < 10) {
      a.put("pad", window(pad, pad[0] != pad[1] || rng.nextBoolean()));
      features.add("Conv2D.pad");
    }
    if (dilation[0] != 1 || dilation[1] != 1) {
      a.put("dilation", window(dilation, dilation[0] != dilation[1] || dilationPair));
      features.add("Conv2D.dilation");
    }
    String act = maybeAct(45);
    if (act != null) {
      a.put("activation", "Act." + act);
      features.add("Conv2D.activation=" + act);
    }
    if (rng.nextInt(100) < 20) {
      a.put("noBias", true);
      features.add("Conv2D.noBias");
    }
    features.add("Conv2D");
    features.add("Conv2D.filters=" + (filters >= 32 ? "32-64" : filters >= 8 ? "8-31" : "1-7"));
    features.add("Conv2D.kernel=" + Math.max(kernel[0], kernel[1]));
    if (kernelPair && kernel[0] != kernel[1]) {
      features.add("Conv2D.kernel={h,w}");
    }
    Node n = node("conv", "Conv2D", a.text(), List.of(x), new int[] {-1, filters, out[0], out[1]});
    n.hasParams = true;
    return n;
  }

  /**
   * Sometimes, drawn by {@link #convRng}: a 1-D convolution over a rank-3 {@code [N, C, W]}, or a
   * transposed convolution over a rank-4 {@code [N, C, H, W]}; null otherwise or when it does not
   * fit the budgets.
   */
  private Node newerConv(Node x) {
    if (x.indices || x.steps()) {
      return null;
    }
    if (x.rank() == 3 && x.shape[1] > 0 && x.shape[2] > 0 && convRng.nextInt(100) < 12) {
      return conv1d(x);
    }
    if (x.rank() == 4 && x.shape[1] > 0 && convRng.nextInt(100) < 8) {
      return deconv(x);
    }
    return null;
  }

  /** A channel-group count dividing both: 1 in three draws of four, else a common divisor. */
  private int groups(int channels, int filters) {
    if (convRng.nextInt(4) != 0) {
      return 1;
    }
    List<Integer> common = new ArrayList<>();
    for (int g = 2; g <= Math.min(channels, filters); g++) {
      if (channels % g == 0 && filters % g == 0) {
        common.add(g);
      }
    }
    return common.isEmpty() ? 1 : common.get(convRng.nextInt(common.size()));
  }

  private Node conv1d(Node x) {
    Random r = convRng;
    int c = x.shape[1];
    int width = x.shape[2];
    int pad = r.nextInt(100) < 55 ? 0 : r.nextInt(3);
    int padded = width + 2 * pad;
    int k = 1 + r.nextInt(Math.min(7, padded));
    int maxD = k == 1 ? 1 : Math.min(3, (padded - 1) / (k - 1));
    int d = r.nextInt(100) < 25 ? 1 + r.nextInt(maxD) : 1;
    int stride = r.nextInt(100) < 65 ? 1 : 2 + r.nextInt(2);
    int out = (padded - (d * (k - 1) + 1)) / stride + 1;
    int filters = r.nextInt(100) < 50 ? 8 * (1 + r.nextInt(4)) : 1 + r.nextInt(16);
    int groups = groups(c, filters);
    long cost = (long) c / groups * k * out * filters;
    if (cost > MAC_BUDGET - macs || (long) filters * out > MAX_VALUES) {
      return null;
    }
    macs += cost;
    Attrs a = new Attrs("Conv1D").put("filters", filters).put("kernel", k);
    if (stride != 1) {
      a.put("stride", stride);
    }
    if (pad != 0) {
      a.put("pad", pad);
    }
    if (d != 1) {
      a.put("dilation", d);
      features.add("Conv1D.dilation");
    }
    if (groups > 1) {
      a.put("groups", groups);
      features.add("Conv1D.groups");
    }
    if (r.nextInt(100) < 50) {
      String act = anAct();
      a.put("activation", "Act." + act);
    }
    if (r.nextInt(100) < 20) {
      a.put("noBias", true);
    }
    features.add("Conv1D");
    Node n = node("conv1d", "Conv1D", a.text(), List.of(x), new int[] {-1, filters, out});
    n.hasParams = true;
    return n;
  }

  /**
   * A transposed convolution, without dilation: the second JVM runs every model without oneDNN,
   * where Kiln refuses a dilated one (MXNet 1.9.1 computes it wrongly there).
   */
  private Node deconv(Node x) {
    Random r = convRng;
    int c = x.shape[1];
    int[] kernel = new int[2];
    int[] stride = new int[2];
    int[] pad = new int[2];
    int[] adj = new int[2];
    int[] out = new int[2];
    boolean pairs = r.nextInt(100) < 30;
    for (int axis = 0; axis < 2; axis++) {
      int size = x.shape[2 + axis];
      if (axis == 1 && !pairs) {
        kernel[1] = kernel[0];
        stride[1] = stride[0];
        pad[1] = pad[0];
        adj[1] = adj[0];
      } else {
        kernel[axis] = 1 + r.nextInt(4);
        stride[axis] = 1 + r.nextInt(3);
        pad[axis] = r.nextInt(100) < 50 ? 0 : r.nextInt(kernel[axis]);
        adj[axis] = r.nextInt(100) < 70 ? 0 : r.nextInt(stride[axis]);
      }
      out[axis] = stride[axis] * (size - 1) + kernel[axis] - 2 * pad[axis] + adj[axis];
      if (out[axis] < 1 || out[axis] > MAX_SPATIAL) {
        return null;
      }
    }
    int filters = r.nextInt(100) < 50 ? 8 * (1 + r.nextInt(2)) : 1 + r.nextInt(12);
    int groups = groups(c, filters);
    long cost = (long) c * x.shape[2] * x.shape[3] * (filters / groups) * kernel[0] * kernel[1];
    if (cost > MAC_BUDGET - macs || (long) filters * out[0] * out[1] > MAX_VALUES) {
      return null;
    }
    macs += cost;
    Attrs a = new Attrs("Deconv2D").put("filters", filters).put("kernel", window(kernel, pairs));
    if (stride[0] != 1 || stride[1] != 1) {
      a.put("stride", window(stride, pairs));
      features.add("Deconv2D.stride");
    }
    if (pad[0] != 0 || pad[1] != 0) {
      a.put("pad", window(pad, pairs));
      features.add("Deconv2D.pad");
    }
    if (adj[0] != 0 || adj[1] != 0) {
      a.put("outputPad", window(adj, pairs));
      features.add("Deconv2D.outputPad");
    }
    if (groups > 1) {
      a.put("groups", groups);
      features.add("Deconv2D.groups");
    }
    if (r.nextInt(100) < 50) {
      a.put("activation", "Act." + anAct());
    }
    if (r.nextInt(100) < 20) {
      a.put("noBias", true);
    }
    features.add("Deconv2D");
    Node n =
        node("deconv", "Deconv2D", a.text(), List.of(x), new int[] {-1, filters, out[0], out[1]});
    n.hasParams = true;
    return n;
  }

  /**
   * Sometimes, drawn by {@link #poolRng}: a 1-D max or average pool over a rank-3 {@code [N, C,
   * W]}, a local response normalisation or an upsampling over a rank-4 one, a parametric ReLU over
   * rank 2 or more, or a global max pool over rank 3 to 5; null otherwise.
   */
  private Node newerPool(Node x) {
    if (x.indices || x.steps()) {
      return null;
    }
    int draw = poolRng.nextInt(100);
    if (x.rank() == 3 && x.shape[2] > 0 && draw < 8) {
      return pool1d(x);
    }
    if (x.rank() == 4 && x.shape[1] > 0 && draw >= 8 && draw < 12) {
      return lrn(x);
    }
    if (x.rank() == 4
        && x.shape[2] > 0
        && x.shape[3] > 0
        && x.shape[2] * x.shape[3] <= 256
        && draw >= 15
        && draw < 21) {
      return upsample(x);
    }
    if (x.rank() >= 2 && x.shape[1] > 0 && draw >= 12 && draw < 15) {
      features.add("PRelu");
      features.add("PRelu.rank" + x.rank());
      Node n = node("prelu", "PRelu", "@PRelu", List.of(x), x.shape.clone());
      n.hasParams = true;
      return n;
    }
    if (x.rank() >= 3 && x.rank() <= 5 && draw >= 97) {
      int[] shape = new int[x.rank()];
      Arrays.fill(shape, 1);
      shape[0] = -1;
      shape[1] = x.shape[1];
      features.add("GlobalMaxPool");
      features.add("GlobalMaxPool.rank" + x.rank());
      return node("gmp", "GlobalMaxPool", "@GlobalMaxPool", List.of(x), shape);
    }
    return null;
  }

  // ---------------------------------------------------------------------------------------------
  // Element-wise and tensor operations, drawn by tensorRng

  private static final String[] BROADCASTS = {"Multiply", "Subtract", "Divide", "Maximum"};

  /**
   * Sometimes, drawn by {@link #tensorRng}: an element-wise or tensor operation over {@code x};
   * null otherwise or when it does not fit the budgets.
   */
  private Node tensorOp(Node x) {
    if (x.indices || x.steps()) {
      return null;
    }
    int r = tensorRng.nextInt(100);
    if (r < 5) {
      return clip(x);
    }
    if (r < 14) {
      return broadcast(x);
    }
    if (r < 20) {
      return matMul(x);
    }
    if (r < 25) {
      return transpose(x);
    }
    if (r < 30) {
      return slice(x);
    }
    if (r < 36) {
      return reduce(x);
    }
    return null;
  }

  /**
   * Sometimes, drawn by {@link #attentionRng}, over a sequence {@code [N, steps, width]}:
   * {@code @MultiHeadAttention}, self or cross (keys and values one node, possibly the query
   * itself), with valid lengths from an input of their own ({@code [BATCH]}, fed whole numbers, see
   * {@link SymbolInfo}), causal, with its own key and value sizes, without biases, with dropout;
   * sometimes after a {@code @PositionalEmbedding}, which is also drawn alone; null otherwise or
   * when it does not fit the budget.
   */
  private Node attention(Node x) {
    if (x.indices || x.steps() || x.rank() != 3 || x.shape[1] <= 0 || x.shape[2] <= 0) {
      return null;
    }
    Random r = attentionRng;
    int draw = r.nextInt(100);
    if (draw >= 14) {
      return null;
    }
    int t = x.shape[1];
    int w = x.shape[2];
    Node query = x;
    if (draw < 4) {
      int steps = t + r.nextInt(3);
      features.add("PositionalEmbedding");
      if (steps > t) {
        features.add("PositionalEmbedding.longer");
      }
      query =
          node(
              "pos",
              "PositionalEmbedding",
              "@PositionalEmbedding(steps = " + steps + ")",
              List.of(x),
              x.shape.clone());
      query.hasParams = true;
      if (draw < 2) {
        return query;
      }
    }
    List<Integer> divisors = new ArrayList<>();
    for (int h = 1; h <= 4; h++) {
      if (w % h == 0) {
        divisors.add(h);
      }
    }
    Attrs a = new Attrs("MultiHeadAttention");
    int heads;
    int dk;
    if (r.nextInt(100) < 25) {
      heads = 1 + r.nextInt(3);
      dk = 1 + r.nextInt(4);
      a.put("heads", heads).put("keyDim", dk);
      features.add("Attention.keyDim");
    } else {
      heads = divisors.get(r.nextInt(divisors.size()));
      dk = w / heads;
      a.put("heads", heads);
    }
    int dv = dk;
    if (r.nextInt(100) < 20) {
      dv = 1 + r.nextInt(4);
      a.put("valueDim", dv);
      features.add("Attention.valueDim");
    }
    if (r.nextInt(100) < 12) {
      a.put("dropout", new String[] {"0.1", "0.2", "0.3"}[r.nextInt(3)]);
      features.add("Attention.dropout");
    }
    boolean causal = r.nextInt(100) < 30;
    List<Node> inputs = new ArrayList<>(List.of(query));
    Node memory = query;
    if (r.nextInt(100) < 40) {
      List<Node> candidates =
          nodes.stream()
              .filter(
                  n ->
                      !n.indices
                          && !n.steps()
                          && n.rank() == 3
                          && n.shape[1] > 0
                          && n.shape[2] > 0
                          && (!causal || n.shape[1] == t))
              .toList();
      memory = candidates.get(r.nextInt(candidates.size()));
      inputs.add(memory);
      inputs.add(memory);
      features.add(memory == query ? "Attention.crossSelf" : "Attention.cross");
    } else {
      features.add("Attention.self");
    }
    int s = memory.shape[1];
    int kv = memory.shape[2];
    long cost =
        (long) t * w * heads * dk
            + (long) s * kv * heads * (dk + dv)
            + (long) t * heads * dv * w
            + (long) heads * t * s * (dk + dv);
    if (cost > MAC_BUDGET - macs || (long) heads * t * Math.max(s, dv) > MAX_VALUES) {
      return query == x ? null : query;
    }
    macs += cost;
    if (causal) {
      a.put("causal", true);
      features.add("Attention.causal");
    }
    if (r.nextInt(100) < 20) {
      a.put("noBias", true);
      features.add("Attention.noBias");
    }
    if (r.nextInt(100) < 35) {
      Node lengths = inputNode(new int[] {-1});
      lengths.indices = true;
      add(lengths, "Input.lengths");
      inputs.add(lengths);
      features.add("Attention.lengths");
    }
    features.add("Attention");
    Node n = node("att", "MultiHeadAttention", a.text(), inputs, x.shape.clone());
    n.hasParams = true;
    return n;
  }

  /**
   * {@code @Lrn} over {@code [N, C, H, W]}: an odd window of at most the channels, MXNet's defaults
   * or other alpha, beta and k.
   */
  private Node lrn(Node x) {
    Random r = poolRng;
    int size = 1 + 2 * r.nextInt((Math.min(x.shape[1], 7) + 1) / 2);
    Attrs a = new Attrs("Lrn").put("size", size);
    if (r.nextInt(100) < 40) {
      a.put("alpha", List.of("0.001", "0.1", "1.0").get(r.nextInt(3)));
      a.put("beta", List.of("0.5", "0.75", "1.0").get(r.nextInt(3)));
      a.put("k", List.of("1", "2", "0.5").get(r.nextInt(3)));
      features.add("Lrn.alpha");
    }
    features.add("Lrn");
    return node("lrn", "Lrn", a.text(), List.of(x), x.shape.clone());
  }

  /** {@code @Upsample} of {@code [N, C, H, W]} by 2 or 3, nearest or bilinear. */
  private Node upsample(Node x) {
    Random r = poolRng;
    int scale = 2 + r.nextInt(2);
    boolean bilinear = r.nextBoolean();
    Attrs a = new Attrs("Upsample").put("scale", scale);
    if (bilinear) {
      a.put("mode", "Upsample.Mode.BILINEAR");
      features.add("Upsample.BILINEAR");
    }
    features.add("Upsample");
    int[] shape = x.shape.clone();
    shape[2] *= scale;
    shape[3] *= scale;
    return node("up", "Upsample", a.text(), List.of(x), shape);
  }

  /** {@code @MaxPool} or {@code @AvgPool} along the width of {@code [N, C, W]}. */
  private Node pool1d(Node x) {
    Random r = poolRng;
    String type = r.nextBoolean() ? "MaxPool" : "AvgPool";
    int width = x.shape[2];
    int k = 1 + r.nextInt(Math.min(5, width));
    int p = r.nextInt(100) < 65 ? 0 : r.nextInt(k);
    boolean explicitStride = r.nextInt(100) < 50;
    int s = explicitStride ? 1 + r.nextInt(3) : k;
    Attrs a = new Attrs(type).put("kernel", k);
    if (explicitStride) {
      a.put("stride", s);
    }
    if (p != 0) {
      a.put("pad", p);
    }
    features.add(type);
    features.add(type + ".rank3");
    int out = (width + 2 * p - k) / s + 1;
    int full = fullSize(width, k, s, p);
    if (full > 0 && r.nextInt(100) < 25) {
      out = full;
      a.put("convention", "PoolConvention.FULL");
      features.add(type + ".convention=FULL");
    }
    return node(
        type.equals("MaxPool") ? "maxpool" : "avgpool",
        type,
        a.text(),
        List.of(x),
        new int[] {-1, x.shape[1], out});
  }

  /**
   * The output size of a pool under the full convention, {@code 1 + ceil((size + 2p - k) / s)}, or
   * -1 when its last window would start after the input's last value (Kiln's EmptyWindow).
   */
  private static int fullSize(int size, int k, int s, int p) {
    int out = 1 + (size + 2 * p - k + s - 1) / s;
    return (out - 1) * s - p >= size ? -1 : out;
  }

  /**
   * {@code @Mean} or {@code @Sum} (of at most 8 values) over some axes after the batch (written
   * from the start or the end), or over all of them by leaving {@code axes} empty; the result keeps
   * rank 2 or more (the reduced axes kept with size 1 where needed), as the other draws expect.
   */
  private Node reduce(Node x) {
    if (x.rank() < 2) {
      return null;
    }
    Random t = tensorRng;
    String layer = t.nextBoolean() ? "Mean" : "Sum";
    List<Integer> axes = new ArrayList<>();
    boolean all = t.nextInt(100) < 25;
    for (int i = 1; i < x.rank(); i++) {
      if (all || t.nextInt(100) < 45) {
        axes.add(i);
      }
    }
    if (axes.isEmpty()) {
      axes.add(1 + t.nextInt(x.rank() - 1));
    }
    long count = 1;
    for (int ax : axes) {
      count *= x.shape[ax];
    }
    if (count > 8) {
      // A sum of many values makes a magnitude that saturates the layers after it (seed 278: a
      // softmax whose gradient underflowed, so that training changed nothing); a mean does not.
      layer = "Mean";
    }
    boolean keep = x.rank() - axes.size() < 2 || t.nextInt(100) < 40;
    Attrs a = new Attrs(layer);
    if (!all) {
      List<String> written = new ArrayList<>();
      for (int ax : axes) {
        written.add(Integer.toString(t.nextInt(100) < 25 ? ax - x.rank() : ax));
      }
      a.put("axes", written.size() == 1 ? written.get(0) : "{" + String.join(", ", written) + "}");
    } else {
      features.add(layer + ".allButBatch");
    }
    if (keep) {
      a.put("keepDims", true);
      features.add(layer + ".keepDims");
    }
    List<Integer> shape = new ArrayList<>();
    for (int i = 0; i < x.rank(); i++) {
      if (!axes.contains(i)) {
        shape.add(x.shape[i]);
      } else if (keep) {
        shape.add(1);
      }
    }
    features.add(layer);
    return node(
        layer.toLowerCase(java.util.Locale.ROOT),
        layer,
        a.text(),
        List.of(x),
        shape.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * {@code @Slice} of an axis after the batch: a range of it, its indices written from the start or
   * from the end, the end sometimes left out.
   */
  private Node slice(Node x) {
    if (x.rank() < 2) {
      return null;
    }
    Random t = tensorRng;
    int axis = 1 + t.nextInt(x.rank() - 1);
    int size = x.shape[axis];
    if (size < 2) {
      return null;
    }
    int begin = t.nextInt(size - 1);
    int end = begin + 1 + t.nextInt(size - begin);
    Attrs a = new Attrs("Slice").put("axis", t.nextInt(100) < 25 ? axis - x.rank() : axis);
    if (begin != 0 || t.nextInt(100) < 10) {
      a.put("begin", t.nextInt(100) < 30 ? begin - size : begin);
    }
    if (end != size || t.nextBoolean()) {
      boolean negative = t.nextInt(100) < 30 && end < size;
      a.put("end", negative ? end - size : end);
      features.add(negative ? "Slice.negativeEnd" : "Slice.end");
    }
    int[] shape = x.shape.clone();
    shape[axis] = end - begin;
    features.add("Slice");
    return node("slice", "Slice", a.text(), List.of(x), shape);
  }

  /**
   * {@code @Transpose} of the axes after the batch (which stays first, as everywhere in these
   * models), some written negative.
   */
  private Node transpose(Node x) {
    if (x.rank() < 3) {
      return null;
    }
    Random t = tensorRng;
    List<Integer> rest = new ArrayList<>();
    for (int i = 1; i < x.rank(); i++) {
      rest.add(i);
    }
    Collections.shuffle(rest, t);
    List<Integer> axes = new ArrayList<>(List.of(0));
    axes.addAll(rest);
    int[] shape = new int[x.rank()];
    List<String> written = new ArrayList<>();
    for (int i = 0; i < x.rank(); i++) {
      shape[i] = x.shape[axes.get(i)];
      int a = axes.get(i);
      written.add(Integer.toString(t.nextInt(100) < 20 ? a - x.rank() : a));
    }
    features.add("Transpose");
    features.add("Transpose.rank" + x.rank());
    if (written.stream().anyMatch(w -> w.startsWith("-"))) {
      features.add("Transpose.negative");
    }
    String text = "@Transpose(axes = {" + String.join(", ", written) + "})";
    return node("transpose", "Transpose", text, List.of(x), shape);
  }

  /**
   * {@code @MatMul} of a stack of matrices {@code x} (rank 3 or more, MXNet's {@code batch_dot}):
   * by itself with one side transposed (a Gram matrix per example), or with a dense projection of
   * its rows, transposed so that the inner sizes agree; the right factor clipped to {@code [-1,
   * 1]}.
   */
  private Node matMul(Node x) {
    if (x.rank() < 3) {
      return null;
    }
    Random t = tensorRng;
    int n = x.rank();
    Node a = x;
    Node b = x;
    boolean ta = t.nextBoolean();
    boolean tb = !ta;
    if (t.nextInt(3) != 0) {
      // x^T d over the rows of x, or d^T x: [.., cols, units] or [.., units, cols].
      Node d = denseLast(x, 1 + t.nextInt(8));
      if (d == null) {
        return null;
      }
      boolean left = t.nextBoolean();
      a = left ? x : d;
      b = left ? d : x;
      ta = true;
      tb = false;
      features.add("MatMul.projection");
    } else {
      features.add("MatMul.gram");
    }
    int m = a.shape[ta ? n - 1 : n - 2];
    int k = a.shape[ta ? n - 2 : n - 1];
    int cols = b.shape[tb ? n - 2 : n - 1];
    int[] out = x.shape.clone();
    out[n - 2] = m;
    out[n - 1] = cols;
    long cost = values(out) * k;
    if (cost > MAC_BUDGET - macs || values(out) > MAX_VALUES) {
      return null;
    }
    macs += cost;
    // One factor bounded, as for @Multiply.
    b = clipped(b, "min = -1, max = 1");
    List<String> attrs = new ArrayList<>();
    if (ta) {
      attrs.add("transposeA = true");
      features.add("MatMul.transposeA");
    }
    if (tb) {
      attrs.add("transposeB = true");
      features.add("MatMul.transposeB");
    }
    features.add("MatMul");
    features.add("MatMul.rank" + n);
    String text = attrs.isEmpty() ? "@MatMul" : "@MatMul(" + String.join(", ", attrs) + ")";
    return node("matmul", "MatMul", text, List.of(a, b), out);
  }

  /** {@code @Clip}: symmetric, ReLU6-like, or open on one side. */
  private Node clip(Node x) {
    Random t = tensorRng;
    String bounds =
        switch (t.nextInt(4)) {
          case 0 -> {
            String a = List.of("0.5", "1", "2.5").get(t.nextInt(3));
            yield "min = -" + a + ", max = " + a;
          }
          case 1 -> "min = 0, max = 6";
          case 2 -> "min = 0, max = Double.POSITIVE_INFINITY";
          default -> "min = Double.NEGATIVE_INFINITY, max = 0.5";
        };
    features.add("Clip");
    if (bounds.contains("INFINITY")) {
      features.add("Clip.oneSided");
    }
    return node("clip", "Clip", "@Clip(" + bounds + ")", List.of(x), x.shape.clone());
  }

  /**
   * {@code @Multiply}, {@code @Subtract}, {@code @Divide} or {@code @Maximum} of {@code x} and an
   * operand that broadcasts against it (itself, another node, or a gate made from it), in either
   * order; a divisor is clipped to {@code [0.5, 4]} first, the second factor of a product to {@code
   * [-1, 1]}.
   */
  private Node broadcast(Node x) {
    Random t = tensorRng;
    String op = BROADCASTS[t.nextInt(BROADCASTS.length)];
    Node other = broadcastOperand(x);
    List<Node> operands = t.nextBoolean() ? List.of(x, other) : List.of(other, x);
    if (op.equals("Divide")) {
      operands = List.of(operands.get(0), clipped(operands.get(1), "min = 0.5, max = 4"));
    } else if (op.equals("Multiply")) {
      operands = List.of(operands.get(0), clipped(operands.get(1), "min = -1, max = 1"));
    }
    int[] out = broadcastShape(x.shape, other.shape);
    features.add(op);
    if (!Arrays.equals(x.shape, other.shape)) {
      features.add(op + ".broadcast");
    }
    return node(op.toLowerCase(java.util.Locale.ROOT), op, "@" + op, operands, out);
  }

  /**
   * {@code x} clipped to {@code bounds}: a divisor away from zero, or one factor of a product
   * bounded, so that a few training steps of the checks cannot make a product of two growing
   * factors overflow (seed 218 did, before).
   */
  private Node clipped(Node x, String bounds) {
    features.add("Clip");
    return node("clip", "Clip", "@Clip(" + bounds + ")", List.of(x), x.shape.clone());
  }

  /** A node that broadcasts against {@code x} to no more than {@link #MAX_VALUES} values. */
  private Node broadcastOperand(Node x) {
    int r = tensorRng.nextInt(100);
    if (r < 15) {
      features.add("Broadcast.sameTwice");
      return x;
    }
    if (r < 55) {
      List<Node> fits =
          nodes.stream()
              .filter(n -> n != x && !n.indices && !n.steps() && n.rank() == x.rank())
              .filter(n -> broadcastShape(n.shape, x.shape) != null)
              .filter(n -> values(broadcastShape(n.shape, x.shape)) <= values(x.shape))
              .toList();
      if (!fits.isEmpty()) {
        return fits.get(tensorRng.nextInt(fits.size()));
      }
    }
    // A gate made from x: its mean per channel, or one unit per row.
    Node gate = x.rank() >= 3 ? globalPool(x) : dense(x, 1);
    return gate == null ? x : gate;
  }

  /** MXNet's broadcast of two shapes of equal rank, or null when they do not broadcast. */
  private static int[] broadcastShape(int[] a, int[] b) {
    int[] out = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i] && a[i] != 1 && b[i] != 1) {
        return null;
      }
      out[i] = a[i] == 1 ? b[i] : a[i];
    }
    return out;
  }

  /** A convolution that keeps the spatial size: odd kernel, padding (k-1)/2, stride 1. */
  private Node sameConv(Node x, int filters) {
    int k = 1 + 2 * rng.nextInt(3);
    int p = (k - 1) / 2;
    long cost = (long) x.shape[1] * k * k * x.shape[2] * x.shape[3] * filters;
    if (cost > MAC_BUDGET - macs) {
      return null;
    }
    macs += cost;
    Attrs a = new Attrs("Conv2D").put("filters", filters).put("kernel", Integer.toString(k));
    if (p > 0) {
      a.put("pad", Integer.toString(p));
    }
    String act = maybeAct(50);
    if (act != null) {
      a.put("activation", "Act." + act);
    }
    features.add("Conv2D");
    Node n =
        node(
            "conv",
            "Conv2D",
            a.text(),
            List.of(x),
            new int[] {-1, filters, x.shape[2], x.shape[3]});
    n.hasParams = true;
    return n;
  }

  private Node pool(Node x, String type) {
    if (x.rank() != 4) {
      return null;
    }
    boolean pairs = rng.nextInt(100) < 30;
    int[] kernel = new int[2];
    int[] pad = new int[2];
    int[] stride = new int[2];
    boolean explicitStride = rng.nextInt(100) < 50;
    int[] out = new int[2];
    for (int axis = 0; axis < 2; axis++) {
      int size = x.shape[2 + axis];
      int k = pairs || axis == 0 ? 1 + rng.nextInt(Math.min(5, size)) : Math.min(kernel[0], size);
      int p = rng.nextInt(100) < 70 ? 0 : rng.nextInt(k);
      if (!pairs && axis == 1) {
        p = Math.min(pad[0], k - 1);
      }
      int s = explicitStride ? 1 + rng.nextInt(3) : k;
      if (explicitStride && !pairs && axis == 1) {
        s = stride[0];
      }
      kernel[axis] = k;
      pad[axis] = p;
      stride[axis] = s;
      out[axis] = (size + 2 * p - k) / s + 1;
    }
    Attrs a = new Attrs(type).put("kernel", window(kernel, pairs));
    if (explicitStride) {
      a.put("stride", window(stride, pairs || rng.nextInt(100) < 20));
      features.add(type + ".stride");
    }
    if (pad[0] != 0 || pad[1] != 0) {
      a.put("pad", window(pad, pairs || rng.nextInt(100) < 20));
      features.add(type + ".pad");
    }
    if (poolRng.nextInt(100) < 15) {
      int[] full = new int[2];
      for (int axis = 0; axis < 2 && full != null; axis++) {
        full[axis] = fullSize(x.shape[2 + axis], kernel[axis], stride[axis], pad[axis]);
        full = full[axis] < 0 ? null : full;
      }
      if (full != null) {
        out = full;
        a.put("convention", "PoolConvention.FULL");
        features.add(type + ".convention=FULL");
      }
    }
    features.add(type);
    return node(
        type.equals("MaxPool") ? "maxpool" : "avgpool",
        type,
        a.text(),
        List.of(x),
        new int[] {-1, x.shape[1], out[0], out[1]});
  }

  /** A pooling window that keeps the spatial size: kernel 3, stride 1, pad 1 (or kernel 1). */
  private Node samePool(Node x) {
    String type = rng.nextBoolean() ? "MaxPool" : "AvgPool";
    boolean three = x.shape[2] >= 1 && rng.nextBoolean();
    String attrs = three ? "kernel = 3, stride = 1, pad = 1" : "kernel = 1";
    features.add(type);
    return node(
        type.equals("MaxPool") ? "maxpool" : "avgpool",
        type,
        "@" + type + "(" + attrs + ")",
        List.of(x),
        x.shape.clone());
  }

  private Node globalPool(Node x) {
    if (x.rank() < 3 || x.rank() > 5) {
      return null;
    }
    int[] shape = new int[x.rank()];
    Arrays.fill(shape, 1);
    shape[0] = -1;
    shape[1] = x.shape[1];
    features.add("GlobalAvgPool");
    features.add("GlobalAvgPool.rank" + x.rank());
    return node("gap", "GlobalAvgPool", "@GlobalAvgPool", List.of(x), shape);
  }

  private Node flatten(Node x) {
    features.add("Flatten");
    return node("flat", "Flatten", "@Flatten", List.of(x), new int[] {-1, x.rest()});
  }

  private Node reshape(Node x) {
    int rest = x.rest();
    List<String> spec = new ArrayList<>();
    int[] shape;
    int form = rng.nextInt(100);
    if (form < 15 && x.rank() >= 3) {
      // {0, -3, -2}: merge dimensions 1 and 2, copy the rest.
      spec.addAll(List.of(copy(), merge(), copyRest()));
      shape = new int[x.rank() - 1];
      shape[0] = -1;
      shape[1] = x.shape[1] * x.shape[2];
      System.arraycopy(x.shape, 3, shape, 2, x.rank() - 3);
      features.add("Reshape.MERGE");
    } else if (form < 30 && divisors(x.shape[1]).size() > 2) {
      // {0, -4, a, b, -2} with one of a, b possibly -1: split dimension 1.
      List<Integer> ds = divisors(x.shape[1]);
      int a = ds.get(rng.nextInt(ds.size()));
      int b = x.shape[1] / a;
      int infer = rng.nextInt(3);
      spec.addAll(
          List.of(
              copy(),
              split(),
              infer == 0 ? "-1" : Integer.toString(a),
              infer == 1 ? "-1" : Integer.toString(b),
              copyRest()));
      shape = new int[x.rank() + 1];
      shape[0] = -1;
      shape[1] = a;
      shape[2] = b;
      System.arraycopy(x.shape, 2, shape, 3, x.rank() - 2);
      features.add("Reshape.SPLIT");
    } else if (form < 40 && x.rank() >= 3) {
      // {0, 0, -1}: keep dimension 1, infer the rest.
      spec.addAll(List.of(copy(), copy(), infer()));
      shape = new int[] {-1, x.shape[1], rest / x.shape[1]};
      features.add("Reshape.COPY");
    } else if (form < 45) {
      // {BATCH, -2}: infer the batch, copy the rest: the identity.
      spec.addAll(List.of("BATCH", copyRest()));
      shape = x.shape.clone();
      features.add("Reshape.COPY_REST");
    } else {
      int[] target = factor(rest, 1 + rng.nextInt(3));
      boolean inferBatch = rng.nextInt(100) < 35;
      int inferAt = !inferBatch && rng.nextInt(100) < 40 ? rng.nextInt(target.length) : -1;
      spec.add(inferBatch ? "BATCH" : copy());
      for (int i = 0; i < target.length; i++) {
        spec.add(i == inferAt ? infer() : Integer.toString(target[i]));
      }
      shape = new int[target.length + 1];
      shape[0] = -1;
      System.arraycopy(target, 0, shape, 1, target.length);
      features.add(
          inferBatch ? "Reshape.BATCH" : inferAt >= 0 ? "Reshape.INFER" : "Reshape.explicit");
    }
    features.add("Reshape");
    features.add("Reshape.rank" + x.rank() + "to" + shape.length);
    return node(
        "reshape",
        "Reshape",
        "@Reshape(shape = {" + String.join(", ", spec) + "})",
        List.of(x),
        shape);
  }

  private String copy() {
    return rng.nextBoolean() ? "0" : "Reshape.COPY";
  }

  private String infer() {
    return rng.nextBoolean() ? "-1" : "Reshape.INFER";
  }

  private String copyRest() {
    return rng.nextBoolean() ? "-2" : "Reshape.COPY_REST";
  }

  private String merge() {
    return rng.nextBoolean() ? "-3" : "Reshape.MERGE";
  }

  private String split() {
    return rng.nextBoolean() ? "-4" : "Reshape.SPLIT";
  }

  private static List<Integer> divisors(int n) {
    List<Integer> ds = new ArrayList<>();
    for (int d = 1; d <= n; d++) {
      if (n % d == 0) {
        ds.add(d);
      }
    }
    return ds;
  }

  /** {@code n} as a product of {@code parts} factors (some may be 1). */
  private int[] factor(int n, int parts) {
    int[] out = new int[parts];
    int left = n;
    for (int i = 0; i < parts - 1; i++) {
      List<Integer> ds = divisors(left);
      out[i] = ds.get(rng.nextInt(ds.size()));
      left /= out[i];
    }
    out[parts - 1] = left;
    List<Integer> shuffled = new ArrayList<>(Arrays.stream(out).boxed().toList());
    Collections.shuffle(shuffled, rng);
    return shuffled.stream().mapToInt(Integer::intValue).toArray();
  }

  private Node dropout(Node x) {
    double[] rates = {0, 0.1, 0.25, 0.5, 0.5, 0.75, 0.9};
    double rate =
        rng.nextInt(100) < 80
            ? rates[rng.nextInt(rates.length)]
            : Math.round(rng.nextDouble() * 90) / 100.0;
    String text = rate == 0.5 && rng.nextBoolean() ? "@Dropout" : "@Dropout(rate = " + rate + ")";
    features.add("Dropout");
    features.add(
        rate == 0
            ? "Dropout.rate=0"
            : rate < 0.5
                ? "Dropout.rate<0.5"
                : rate == 0.5 ? "Dropout.rate=0.5" : "Dropout.rate>0.5");
    return node("drop", "Dropout", text, List.of(x), x.shape.clone());
  }

  /** A non-batch axis of {@code x}, written as a positive or a negative index. */
  private int axis(Node x, int preferred) {
    int a = preferred > 0 && rng.nextInt(100) < 60 ? preferred : 1 + rng.nextInt(x.rank() - 1);
    return rng.nextInt(100) < 30 ? a - x.rank() : a;
  }

  private Node batchNorm(Node x) {
    Attrs at = new Attrs("BatchNorm");
    // On rank 4 only the channels: MXNet 1.9.1 fails the backward pass of a batch norm over
    // another axis of a convolution's oneDNN output (known-defects/ConvBatchNormLastAxis).
    int axis = x.rank() == 4 ? (rng.nextInt(100) < 20 ? -3 : 1) : axis(x, 1);
    if (axis != 1 || rng.nextInt(100) < 10) {
      at.put("axis", axis);
      features.add("BatchNorm.axis");
    }
    if (rng.nextBoolean()) {
      at.put("eps", epsilon());
      features.add("BatchNorm.eps");
    }
    if (rng.nextBoolean()) {
      double[] ms = {0, 0.5, 0.9, 0.99, 1};
      at.put("momentum", Double.toString(ms[rng.nextInt(ms.length)]));
      features.add("BatchNorm.momentum");
    }
    features.add("BatchNorm");
    Node n = node("bn", "BatchNorm", at.text(), List.of(x), x.shape.clone());
    n.hasParams = true;
    return n;
  }

  private String epsilon() {
    String[] es = {"1e-5", "1e-4", "1e-3", "0.01", "2e-5"};
    return es[rng.nextInt(es.length)];
  }

  private Node layerNorm(Node x) {
    Attrs at = new Attrs("LayerNorm");
    int axis = axis(x, x.rank() - 1);
    if (axis != -1 || rng.nextInt(100) < 10) {
      at.put("axis", axis);
      features.add("LayerNorm.axis");
    }
    if (rng.nextBoolean()) {
      at.put("eps", epsilon());
      features.add("LayerNorm.eps");
    }
    features.add("LayerNorm");
    Node n = node("ln", "LayerNorm", at.text(), List.of(x), x.shape.clone());
    n.hasParams = true;
    return n;
  }

  private void embedding(Node indices) {
    int inputDim = 2 + rng.nextInt(29);
    int outputDim = 1 + rng.nextInt(16);
    int[] shape = Arrays.copyOf(indices.shape, indices.rank() + 1);
    shape[shape.length - 1] = outputDim;
    features.add("Embedding");
    Node n =
        node(
            "embed",
            "Embedding",
            "@Embedding(inputDim = " + inputDim + ", outputDim = " + outputDim + ")",
            List.of(indices),
            shape);
    n.hasParams = true;
  }

  private Node activation(Node x) {
    String act = anAct();
    features.add("Activation");
    features.add("Activation=" + act);
    return node("act", "Activation", "@Activation(Act." + act + ")", List.of(x), x.shape.clone());
  }

  private Node softmax(Node x) {
    int r = rng.nextInt(100);
    String text;
    if (x.rank() == 4 && fromConvolution(x)) {
      // Not over the last axis, which oneDNN runs: MXNet 1.9.1 crashes there when the
      // convolution's output is also a model output (known-defects/ConvOutputSoftmax).
      int a = 1 + rng.nextInt(2);
      text = "@Softmax(axis = " + (rng.nextBoolean() ? a : a - 4) + ")";
      features.add("Softmax.axis");
    } else if (r < 50) {
      text = "@Softmax";
    } else {
      text = "@Softmax(axis = " + axis(x, x.rank() - 1) + ")";
      features.add("Softmax.axis");
    }
    features.add("Softmax");
    return node("softmax", "Softmax", text, List.of(x), x.shape.clone());
  }

  /** Whether a convolution made {@code x}, through layers that keep a rank-4 tensor. */
  private static boolean fromConvolution(Node x) {
    if (x.layer.equals("Conv2D")) {
      return true;
    }
    return x.rank() == 4
        && !x.layer.equals("Reshape")
        && x.inputs.stream().anyMatch(ModelGenerator::fromConvolution);
  }

  /** A node of {@code x}'s exact shape made from it, for a second operand of add or concat. */
  private Node sibling(Node x) {
    for (int attempt = 0; attempt < 10; attempt++) {
      int r = rng.nextInt(100);
      Node n;
      if (r < 25) {
        n = activation(x);
      } else if (r < 35) {
        n = dropout(x);
      } else if (r < 45) {
        n = batchNorm(x);
      } else if (r < 55) {
        n = layerNorm(x);
      } else if (r < 75 && x.rank() == 4) {
        n = rng.nextBoolean() ? sameConv(x, x.shape[1]) : samePool(x);
      } else if (r < 85) {
        n = x.rank() == 2 ? dense(x, x.last()) : denseLast(x, x.last());
      } else if (r < 95 && x.rank() == 2) {
        n = custom(x, x.last());
      } else {
        n = null;
      }
      if (n != null) {
        return n;
      }
    }
    return activation(x);
  }

  /** {@code @Dense(flatten = false)}: only the last dimension changes, to {@code units}. */
  private Node denseLast(Node x, int units) {
    long cost = (long) x.rest() * units;
    if (cost > MAC_BUDGET - macs) {
      return null;
    }
    macs += cost;
    int[] shape = x.shape.clone();
    shape[shape.length - 1] = units;
    if (values(shape) > MAX_VALUES) {
      return null;
    }
    Attrs a = new Attrs("Dense").put("units", units).put("flatten", false);
    String act = maybeAct(50);
    if (act != null) {
      a.put("activation", "Act." + act);
    }
    features.add("Dense");
    features.add("Dense.flatten=false");
    Node n = node("dense", "Dense", a.text(), List.of(x), shape);
    n.hasParams = true;
    return n;
  }

  private Node addNode(Node x) {
    List<Node> operands = new ArrayList<>();
    operands.add(x);
    int count = rng.nextInt(100) < 75 ? 2 : 3;
    while (operands.size() < count) {
      List<Node> same =
          nodes.stream()
              .filter(n -> !n.indices && !n.steps() && Arrays.equals(n.shape, x.shape))
              .toList();
      int r = rng.nextInt(100);
      if (r < 15) {
        operands.add(x);
        features.add("Add.sameTwice");
      } else if (r < 50 && same.size() > 1) {
        operands.add(same.get(rng.nextInt(same.size())));
      } else {
        operands.add(sibling(x));
      }
    }
    Collections.shuffle(operands, rng);
    features.add("Add");
    features.add("Add.operands=" + operands.size());
    return node("add", "Add", "@Add", operands, x.shape.clone());
  }

  private Node concat(Node x) {
    int axis = 1 + rng.nextInt(x.rank() - 1);
    List<Node> operands = new ArrayList<>();
    operands.add(x);
    int count = rng.nextInt(100) < 75 ? 2 : 3;
    int total = x.shape[axis];
    while (operands.size() < count) {
      List<Node> fits =
          nodes.stream().filter(n -> !n.indices && !n.steps() && fitsConcat(n, x, axis)).toList();
      int r = rng.nextInt(100);
      Node o;
      if (r < 15 && x.rank() != 4) {
        // Not of a rank-4 tensor, where MXNet's oneDNN concatenation goes wrong with one array
        // twice (known-defects: ConcatConvBackwardSigfpe, ConcatInputTwiceZeros).
        o = x;
        features.add("Concat.sameTwice");
      } else if (r < 50 && fits.size() > 1) {
        o = fits.get(rng.nextInt(fits.size()));
      } else if (r < 75 && axis == 1 && x.rank() == 4) {
        o = sameConv(x, 1 + rng.nextInt(16));
      } else if (r < 75 && axis == x.rank() - 1) {
        o = x.rank() == 2 ? dense(x, pickUnits()) : denseLast(x, pickUnits());
      } else {
        o = sibling(x);
      }
      if (o == null || !fitsConcat(o, x, axis)) {
        o = sibling(x);
      }
      operands.add(o);
      total += o.shape[axis];
    }
    int[] shape = x.shape.clone();
    shape[axis] = total;
    if (values(shape) > MAX_VALUES) {
      return null;
    }
    Collections.shuffle(operands, rng);
    String text;
    if (axis == 1 && rng.nextBoolean()) {
      text = "@Concat";
    } else {
      text = "@Concat(axis = " + (rng.nextInt(100) < 30 ? axis - x.rank() : axis) + ")";
      features.add("Concat.axis");
    }
    features.add("Concat");
    features.add("Concat.operands=" + operands.size());
    return node("concat", "Concat", text, operands, shape);
  }

  private static boolean fitsConcat(Node n, Node x, int axis) {
    if (n.rank() != x.rank()) {
      return false;
    }
    for (int i = 1; i < x.rank(); i++) {
      if (i != axis && n.shape[i] != x.shape[i]) {
        return false;
      }
    }
    return true;
  }

  private Node custom(Node x) {
    return custom(x, -1);
  }

  /**
   * A custom {@code @Layer} drawn for this model over a rank-2 or rank-3 input, its body a random
   * chain of {@code Sym} operations; {@code width} fixes the output's last dimension (rank 2 only)
   * when positive.
   */
  private Node custom(Node x, int width) {
    if (x.rank() != 2 && x.rank() != 3) {
      return null;
    }
    CustomLayer layer = new CustomLayer(model + "L" + (layers.size() + 1), x.shape, width, rng);
    if (layer.macs() > MAC_BUDGET - macs || values(layer.outputShape()) > MAX_VALUES) {
      return null;
    }
    macs += layer.macs();
    layers.put(PACKAGE + "." + layer.name(), layer.source(model, seed));
    features.add("Custom");
    features.addAll(layer.features());
    Node n = node("custom", "Custom", layer.useSite(), List.of(x), layer.outputShape());
    n.hasParams = layer.hasParams();
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Recurrent layers

  /**
   * Adds a sequence {@code [BATCH, steps, features]} (a new input of a constant number of steps or
   * of {@code Dim.STEPS}, an existing rank-3 node, a reshape, a dense layer over the last axis or
   * an embedding of indices), one or two recurrent layers over it and layers that read their
   * output. Drawn with {@link #recurrentRng}. A {@code STEPS} sequence stays among the recurrent
   * part (the main draw never picks it) and ends in a vector in a classifier.
   */
  private void recurrentPart(boolean classifier) {
    Node seq = sequence();
    Node y = recurrent(seq);
    int followers = rng.nextInt(3);
    for (int i = 0; i < followers || y.steps() && classifier; i++) {
      if (y.steps()) {
        boolean end = classifier && i >= followers;
        int r = rng.nextInt(100);
        Node next;
        if (end || r < 45) {
          next = recurrent(y, end);
          features.add("Recurrent.stacked");
        } else if (r < 70) {
          next = stepsDense(y);
        } else if (r < 85) {
          next = activation(y);
        } else {
          next = stepsLayerNorm(y);
        }
        features.add("Recurrent.then=" + next.layer);
        y = next;
      } else if (y.rank() == 3) {
        int r = rng.nextInt(100);
        Node next = null;
        if (r < 35 && y.shape[1] <= MAX_STEPS && y.shape[2] <= 64) {
          next = recurrent(y);
          features.add("Recurrent.stacked");
        } else if (r < 60) {
          next = dense(y, -1, true);
        }
        if (next == null) {
          int before = nodes.size();
          step(y);
          next = nodes.get(nodes.size() - 1);
          if (nodes.size() == before) {
            break;
          }
        }
        features.add("Recurrent.then=" + next.layer);
        y = next;
      } else {
        int before = nodes.size();
        step(y);
        if (nodes.size() == before) {
          break;
        }
        y = nodes.get(nodes.size() - 1);
        features.add("Recurrent.then=" + y.layer);
      }
    }
  }

  /** The sequence a recurrent layer reads, {@code [BATCH, steps, features]}. */
  private Node sequence() {
    List<Node> rank3 =
        nodes.stream()
            .filter(
                n ->
                    !n.indices
                        && !n.steps()
                        && n.rank() == 3
                        && n.shape[1] <= MAX_STEPS
                        && n.shape[2] <= 64)
            .toList();
    List<Node> reshapable =
        nodes.stream()
            .filter(n -> !n.indices && !n.steps() && n.rank() >= 2 && n.rest() <= 384)
            .toList();
    int r = rng.nextInt(100);
    if (r < 20 && !rank3.isEmpty()) {
      features.add("Recurrent.from=rank3");
      return rank3.get(rng.nextInt(rank3.size()));
    }
    if (r < 35 && !rank3.isEmpty()) {
      Node d = dense(rank3.get(rng.nextInt(rank3.size())), 1 + rng.nextInt(16), false);
      if (d != null) {
        features.add("Recurrent.from=dense");
        return d;
      }
    }
    if (r < 55 && !reshapable.isEmpty()) {
      Node x = reshapable.get(rng.nextInt(reshapable.size()));
      List<Integer> ts =
          divisors(x.rest()).stream().filter(t -> t <= MAX_STEPS && x.rest() / t <= 64).toList();
      if (!ts.isEmpty()) {
        int t = ts.get(rng.nextInt(ts.size()));
        int f = x.rest() / t;
        boolean batchFirst = rng.nextBoolean();
        // One dimension at most is inferred: with BATCH first, none of the others.
        int infer = batchFirst ? 2 : rng.nextInt(3);
        String spec =
            (batchFirst ? "BATCH" : copy())
                + ", "
                + (infer == 0 ? infer() : Integer.toString(t))
                + ", "
                + (infer == 1 ? infer() : Integer.toString(f));
        features.add("Reshape");
        features.add("Recurrent.from=reshape");
        return node(
            "reshape",
            "Reshape",
            "@Reshape(shape = {" + spec + "})",
            List.of(x),
            new int[] {-1, t, f});
      }
    }
    if (r < 65) {
      int[] shape = {-1, 1 + rng.nextInt(6)};
      Node in = inputNode(shape);
      in.indices = true;
      add(in, "Input.indices");
      embedding(in);
      features.add("Recurrent.from=embedding");
      return nodes.get(nodes.size() - 1);
    }
    boolean anySteps = rng.nextInt(100) < 40;
    int[] shape = {-1, anySteps ? STEPS : 1 + rng.nextInt(MAX_STEPS), 1 + rng.nextInt(12)};
    Node in = inputNode(shape);
    add(in, anySteps ? "Input.steps" : "Input.sequence");
    features.add("Recurrent.from=input");
    return in;
  }

  /** A recurrent layer over {@code x}, returning the sequence or the last step as drawn. */
  private Node recurrent(Node x) {
    return recurrent(x, false);
  }

  /**
   * {@code @Lstm}, {@code @Gru} or {@code @Rnn} over {@code x}, {@code [BATCH, steps, features]}:
   * every attribute drawn; {@code last} forces {@code returnSequences = false}.
   */
  private Node recurrent(Node x, boolean last) {
    String[] kinds = {"Lstm", "Gru", "Rnn"};
    String kind = kinds[rng.nextInt(kinds.length)];
    int gates = kind.equals("Lstm") ? 4 : kind.equals("Gru") ? 3 : 1;
    int r = rng.nextInt(100);
    int units = r < 15 ? 1 + rng.nextInt(2) : r < 85 ? 3 + rng.nextInt(10) : 13 + rng.nextInt(4);
    int layers = rng.nextInt(100) < 30 ? 2 : 1;
    boolean bidirectional = rng.nextInt(100) < 30;
    boolean returnSequences = !last && rng.nextInt(100) < 55;
    boolean stateful = !bidirectional && rng.nextInt(100) < 15;
    Attrs a = new Attrs(kind).put("units", units);
    if (kind.equals("Rnn") && rng.nextInt(100) < 60) {
      String act = rng.nextBoolean() ? "RELU" : "TANH";
      a.put("activation", "Act." + act);
      features.add("Rnn.activation=" + act);
    }
    if (layers > 1 || rng.nextInt(100) < 10) {
      a.put("layers", layers);
      features.add(kind + ".layers=" + layers);
    }
    if (bidirectional || rng.nextInt(100) < 10) {
      a.put("bidirectional", bidirectional);
      features.add(kind + ".bidirectional=" + bidirectional);
    }
    if (rng.nextInt(100) < (layers > 1 ? 50 : 10)) {
      double[] rates = {0, 0.1, 0.25, 0.5};
      double rate = rates[rng.nextInt(rates.length)];
      a.put("dropout", rate);
      features.add(
          kind + ".dropout" + (rate == 0 ? "=0" : layers > 1 ? ">0,stacked" : ">0,one layer"));
    }
    if (!returnSequences || rng.nextInt(100) < 15) {
      a.put("returnSequences", returnSequences);
      features.add(kind + ".returnSequences=" + returnSequences);
    }
    if (stateful || rng.nextInt(100) < 5) {
      a.put("stateful", stateful);
      features.add(kind + ".stateful=" + stateful);
    }
    int dirs = bidirectional ? 2 : 1;
    int width = units * dirs;
    int steps = x.shape[1] == STEPS ? STEPS_BOUND : x.shape[1];
    long cost = 0;
    for (int l = 0; l < layers; l++) {
      int in = l == 0 ? x.shape[2] : width;
      cost += (long) steps * dirs * gates * units * (in + units);
    }
    macs += cost;
    features.add(kind);
    features.add("Recurrent");
    if (x.shape[1] == STEPS) {
      features.add("Recurrent.overSTEPS");
    } else {
      features.add(
          "Recurrent.steps=" + (x.shape[1] == 1 ? "1" : x.shape[1] < MAX_STEPS ? "2-5" : "6"));
    }
    int[] shape = returnSequences ? new int[] {-1, x.shape[1], width} : new int[] {-1, width};
    String prefix = kind.equals("Lstm") ? "lstm" : kind.equals("Gru") ? "gru" : "rnn";
    Node n = node(prefix, kind, a.text(), List.of(x), shape);
    n.hasParams = true;
    return n;
  }

  /** {@code @Dense(flatten = false)} over a {@code STEPS} sequence. */
  private Node stepsDense(Node x) {
    int u = 1 + rng.nextInt(16);
    macs += (long) STEPS_BOUND * x.last() * u;
    Attrs a = new Attrs("Dense").put("units", u).put("flatten", false);
    String act = maybeAct(50);
    if (act != null) {
      a.put("activation", "Act." + act);
    }
    features.add("Dense");
    features.add("Dense.flatten=false");
    int[] shape = x.shape.clone();
    shape[2] = u;
    Node n = node("dense", "Dense", a.text(), List.of(x), shape);
    n.hasParams = true;
    return n;
  }

  /** {@code @LayerNorm} over the features of a {@code STEPS} sequence. */
  private Node stepsLayerNorm(Node x) {
    String[] forms = {"@LayerNorm", "@LayerNorm(axis = -1)", "@LayerNorm(axis = 2)"};
    features.add("LayerNorm");
    Node n = node("ln", "LayerNorm", forms[rng.nextInt(forms.length)], List.of(x), x.shape.clone());
    n.hasParams = true;
    return n;
  }

  // ---------------------------------------------------------------------------------------------
  // Outputs

  /** Turns every dangling node into a {@code [BATCH, k]} vector, concatenates, dense, softmax. */
  private void classifierHead() {
    List<Node> vectors = new ArrayList<>();
    for (Node d : dangling()) {
      Node v = d;
      if (v.rank() == 4 && rng.nextBoolean()) {
        v = globalPool(v);
      }
      if (v.rank() != 2) {
        v = rng.nextInt(100) < 70 ? flatten(v) : dense(v, -1, true);
        if (v == null) {
          v = flatten(d);
        }
      }
      vectors.add(v);
    }
    Node features = vectors.get(0);
    if (vectors.size() > 1) {
      int[] shape = {-1, vectors.stream().mapToInt(n -> n.shape[1]).sum()};
      features =
          node(
              "concat",
              "Concat",
              rng.nextBoolean() ? "@Concat" : "@Concat(axis = -1)",
              vectors,
              shape);
      this.features.add("Concat");
    }
    int classes = 2 + rng.nextInt(9);
    Node logits =
        node(
            "logits",
            "Dense",
            "@Dense(units = " + classes + ")",
            List.of(features),
            new int[] {-1, classes});
    logits.hasParams = true;
    macs += (long) features.shape[1] * classes;
    String[] axes = {"@Softmax", "@Softmax(axis = 1)", "@Softmax(axis = -1)"};
    node(
        "probs",
        "Softmax",
        axes[rng.nextInt(axes.length)],
        List.of(logits),
        new int[] {-1, classes});
    this.features.add("Softmax");
  }

  private List<Node> dangling() {
    return nodes.stream().filter(n -> !n.isInput && n.consumers == 0).toList();
  }

  /**
   * Every dangling node is an output; beyond four they are merged first. The others are marked
   * {@code @Output} (most of the time; otherwise the processor warns and still outputs them), and
   * now and then a consumed node is marked too.
   */
  private void finishOutputs() {
    while (dangling().size() > 4) {
      List<Node> d = dangling().stream().filter(n -> !n.steps()).toList();
      if (d.size() < 2) {
        break;
      }
      Node a = d.get(0).rank() == 2 ? d.get(0) : flatten(d.get(0));
      Node b = d.get(1).rank() == 2 ? d.get(1) : flatten(d.get(1));
      node("concat", "Concat", "@Concat", List.of(a, b), new int[] {-1, a.shape[1] + b.shape[1]});
      features.add("Concat");
    }
    if (rng.nextInt(100) < 15) {
      softmax(nodes.get(nodes.size() - 1));
    }
    Node last = nodes.get(nodes.size() - 1);
    for (Node n : dangling()) {
      if (n != last && rng.nextInt(100) < 80) {
        n.output = true;
        n.annotations.add(0, "@Output");
        features.add("Output.dangling");
      } else if (n != last) {
        features.add("UnusedNode");
      }
    }
    int extra = 0;
    for (Node n : nodes) {
      if (!n.isInput && n.consumers > 0 && extra < 2 && rng.nextInt(100) < 8) {
        n.output = true;
        n.annotations.add(0, "@Output");
        features.add("Output.consumed");
        extra++;
      }
    }
  }

  /**
   * Ends four in five of the models that can have a loss head in {@code @L2Loss}, {@code @L1Loss}
   * or {@code @LogisticLoss} over their last node: models of one input whose one output is the last
   * node, {@code BATCH} followed by known sizes. Drawn from {@link #lossRng}, so every other model
   * is the one this seed drew before loss heads were added.
   */
  private void lossHead() {
    Node last = nodes.get(nodes.size() - 1);
    boolean eligible =
        nodes.stream().filter(n -> n.isInput).count() == 1
            && nodes.stream().filter(this::isOutput).count() == 1
            && isOutput(last)
            && !last.steps()
            && last.shape[0] == -1;
    if (!eligible || lossRng.nextInt(100) >= 80) {
      return;
    }
    String head = List.of("L2Loss", "L1Loss", "LogisticLoss").get(lossRng.nextInt(3));
    node("loss", head, "@" + head, List.of(last), last.shape.clone());
    features.add(head);
  }

  private boolean isOutput(Node n) {
    return !n.isInput && (n.consumers == 0 || n.output);
  }

  // ---------------------------------------------------------------------------------------------
  // Bookkeeping and rendering

  private Node node(
      String prefix, String layer, String annotation, List<Node> inputs, int[] shape) {
    Node n = new Node(name(prefix), layer, annotation, List.copyOf(inputs), shape, false);
    add(n, null);
    return n;
  }

  private void add(Node n, String feature) {
    for (Node in : n.inputs) {
      in.consumers++;
    }
    nodes.add(n);
    if (feature != null) {
      features.add(feature);
    }
  }

  private String name(String prefix) {
    String n;
    if (rng.nextInt(100) < 6) {
      n = AWKWARD_NAMES.get(rng.nextInt(AWKWARD_NAMES.size()));
      if (!names.contains(n)) {
        names.add(n);
        features.add("awkwardName");
        return n;
      }
    }
    do {
      n = prefix + (++counter);
    } while (!names.add(n));
    return n;
  }

  private int[] pair(java.util.function.IntSupplier draw) {
    int a = draw.getAsInt();
    return new int[] {a, rng.nextInt(100) < 70 ? a : draw.getAsInt()};
  }

  private static String window(int[] v, boolean pair) {
    return pair || v[0] != v[1] ? "{" + v[0] + ", " + v[1] + "}" : Integer.toString(v[0]);
  }

  private static long values(int[] shape) {
    long n = 1;
    for (int i = 1; i < shape.length; i++) {
      n *= shape[i];
    }
    return n;
  }

  private String render(boolean classifier) {
    List<Node> order = new ArrayList<>(nodes);
    if (rng.nextInt(100) < 20) {
      Node last = order.remove(order.size() - 1);
      Collections.shuffle(order, rng);
      order.add(last);
      features.add("shuffledDeclarations");
    }
    StringBuilder s = new StringBuilder();
    s.append("package ").append(PACKAGE).append(";\n\n");
    s.append("import static dev.kiln.annotations.Dim.BATCH;\n");
    if (nodes.stream().anyMatch(n -> n.isInput && n.steps())) {
      s.append("import static dev.kiln.annotations.Dim.STEPS;\n");
    }
    s.append('\n');
    s.append("import dev.kiln.annotations.*;\n\n");
    s.append("/** Drawn by the differential suite's generator from seed ")
        .append(seed)
        .append(". */\n");
    s.append(classifier ? "@Model(classifier = true)\n" : "@Model\n");
    s.append("public interface ").append(model).append(" {\n");
    Function<Node, String> params =
        n -> {
          List<String> ps = new ArrayList<>();
          Set<String> taken = new TreeSet<>();
          for (Node in : n.inputs) {
            boolean rename = taken.contains(in.name) || rng.nextInt(100) < 12;
            if (rename) {
              String p;
              int k = 0;
              do {
                p = "arg" + k++;
              } while (taken.contains(p) || names.contains(p));
              taken.add(p);
              ps.add("@From(\"" + in.name + "\") Sym " + p);
              features.add("From");
            } else {
              taken.add(in.name);
              ps.add("Sym " + in.name);
            }
          }
          return String.join(", ", ps);
        };
    for (Node n : order) {
      s.append('\n');
      for (String a : n.annotations) {
        s.append("  ").append(a).append('\n');
      }
      s.append("  Sym ").append(n.name).append('(').append(params.apply(n)).append(");\n");
    }
    s.append("}\n");
    return s.toString();
  }

  /** An annotation being written: {@code @Dense(units = 4, noBias = true)}. */
  private static final class Attrs {
    private final String layer;
    private final List<String> parts = new ArrayList<>();

    Attrs(String layer) {
      this.layer = layer;
    }

    Attrs put(String key, Object value) {
      parts.add(key + " = " + value);
      return this;
    }

    String text() {
      return "@" + layer + (parts.isEmpty() ? "" : "(" + String.join(", ", parts) + ")");
    }
  }
}
