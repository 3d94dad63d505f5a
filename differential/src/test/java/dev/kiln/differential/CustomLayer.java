package dev.kiln.differential;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * A random custom {@code @Layer} (docs/custom-layers.md): an annotation type whose {@code int}
 * elements are dimensions (some with defaults, so the use site may leave them out), an optional
 * {@code float} constant passed to the forward method by name, and a forward body that chains
 * {@code Sym} operations drawn from the whole symbolic API ({@code dot}, {@code transpose}, {@code
 * add}, {@code sub}, {@code mul}, {@code div}, {@code scale}, {@code activation}, {@code exp},
 * {@code sum}) over {@code @Param}s shaped by the layer's dimensions, tracking the shape as it
 * goes. The input is {@code [batch, in]} or {@code [batch, steps, in]}; the batch is never reduced,
 * transposed or mixed.
 */
final class CustomLayer {
  private static final String[] ACTS = {"RELU", "SIGMOID", "TANH", "SOFTRELU", "SOFTSIGN"};

  /** An {@code int} element: a dimension. */
  private record Element(String name, int value, boolean hasDefault, boolean written) {}

  /** A {@code @Param} of the forward method. */
  private record Param(String name, List<String> shape, boolean zeros) {}

  private final String name;
  private final Random rng;
  private final List<String> input = new ArrayList<>();
  private final List<String> output = new ArrayList<>();
  private final Map<String, Element> elements = new LinkedHashMap<>();
  private final List<Param> params = new ArrayList<>();
  private final List<String> features = new ArrayList<>();
  private final int[] outputShape;
  private Float scaleDefault;
  private Float scaleWritten;
  private String body;
  private long macs;

  /**
   * Draws a layer named {@code name} for an input of {@code inputShape} ({@code [-1, in]} or {@code
   * [-1, steps, in]}); a positive {@code width} fixes the output's last dimension.
   */
  CustomLayer(String name, int[] inputShape, int width, Random rng) {
    this.name = name;
    this.rng = rng;
    String batch = pick("batch", "n", "rows");
    String in = pick("in", "features", "width");
    boolean rank3 = inputShape.length == 3;
    String steps = rank3 ? pick("steps", "t", "len") : null;
    input.add(batch);
    if (rank3) {
      input.add(steps);
      features.add("Custom.rank3");
    }
    input.add(in);

    String e = "x";
    String cur = in;
    int curValue = inputShape[inputShape.length - 1];
    int rows = rank3 ? inputShape[1] : 1;
    boolean reduced = false;
    int ops = 1 + rng.nextInt(4);
    for (int i = 0; i < ops; i++) {
      int r = rng.nextInt(100);
      if (r < 28) {
        String[] next = newDim(in, inputShape[inputShape.length - 1]);
        int nextValue = Integer.parseInt(next[1]);
        boolean transposed = rng.nextInt(100) < 30;
        String w = param(transposed ? List.of(next[0], cur) : List.of(cur, next[0]), false);
        e = e + ".dot(" + w + (transposed ? ".transpose()" : "") + ")";
        features.add(transposed ? "Custom.transpose" : "Custom.dot");
        macs += (long) rows * curValue * nextValue;
        cur = next[0];
        curValue = nextValue;
      } else if (r < 40) {
        boolean sub = rng.nextInt(100) < 35;
        String b = param(List.of(cur), rng.nextBoolean());
        e = e + (sub ? ".sub(" : ".add(") + b + ")";
        features.add(sub ? "Custom.sub" : "Custom.add");
      } else if (r < 50) {
        boolean gated = rng.nextBoolean();
        String g = param(List.of(cur), false);
        e = e + ".mul(" + g + (gated ? ".activation(Act.SIGMOID)" : "") + ")";
        features.add("Custom.mul");
      } else if (r < 56) {
        String g = param(List.of(cur), false);
        e = e + ".div(" + g + ".exp())";
        features.add("Custom.div");
        features.add("Custom.exp");
      } else if (r < 66) {
        String act = ACTS[rng.nextInt(ACTS.length)];
        e = e + ".activation(Act." + act + ")";
        features.add("Custom.activation");
      } else if (r < 74) {
        if (rng.nextBoolean()) {
          scaleDefault = tenths(rng.nextDouble() * 3 - 1.5);
          if (rng.nextBoolean()) {
            scaleWritten = tenths(rng.nextDouble() * 2 + 0.1);
          }
          e = e + ".scale(scale)";
          features.add("Custom.floatElement");
        } else {
          e = e + ".scale(" + String.format(Locale.ROOT, "%.1f", rng.nextDouble() * 4 - 2) + "f)";
        }
        features.add("Custom.scale");
      } else if (r < 80) {
        e = e + ".activation(Act.TANH).exp()";
        features.add("Custom.exp");
      } else if (r < 88
          && curValue == inputShape[inputShape.length - 1]
          && cur.equals(in)
          && !reduced) {
        e = e + ".add(x)";
        features.add("Custom.residual");
      } else if (r < 95) {
        String g = param(List.of(in, cur), false);
        e = e + ".mul(x.dot(" + g + ").activation(Act.SIGMOID))";
        macs += (long) rows * inputShape[inputShape.length - 1] * curValue;
        features.add("Custom.gate");
      } else if (rank3 && !reduced) {
        if (rng.nextBoolean()) {
          e = e + ".sum(1)";
        } else {
          e = e + ".sum(" + (rng.nextBoolean() ? 2 : -1) + ")";
          cur = steps;
          curValue = inputShape[1];
        }
        reduced = true;
        rows = 1;
        features.add("Custom.sum");
        break;
      }
    }
    if (width > 0 && (curValue != width || reduced)) {
      String w = param(List.of(cur, Integer.toString(width)), false);
      e = e + ".dot(" + w + ")";
      macs += (long) rows * curValue * width;
      cur = Integer.toString(width);
      curValue = width;
    }
    body = e;
    output.add(batch);
    if (rank3 && !reduced) {
      output.add(steps);
    }
    output.add(cur);
    outputShape =
        rank3 && !reduced ? new int[] {-1, inputShape[1], curValue} : new int[] {-1, curValue};
  }

  private static float tenths(double v) {
    return Float.parseFloat(String.format(Locale.ROOT, "%.1f", v));
  }

  private String pick(String... options) {
    return options[rng.nextInt(options.length)];
  }

  /** A dimension for a dot's new width: a new element, a literal, or the input's width. */
  private String[] newDim(String in, int inValue) {
    int r = rng.nextInt(100);
    int value = 1 + rng.nextInt(16);
    if (r < 55) {
      String n = "u" + elements.size();
      boolean hasDefault = rng.nextInt(100) < 40;
      boolean written = !hasDefault || rng.nextBoolean();
      elements.put(n, new Element(n, value, hasDefault, written));
      features.add(hasDefault ? "Custom.defaultElement" : "Custom.element");
      return new String[] {n, Integer.toString(value)};
    }
    if (r < 80) {
      features.add("Custom.literalDim");
      return new String[] {Integer.toString(value), Integer.toString(value)};
    }
    return new String[] {in, Integer.toString(inValue)};
  }

  private String param(List<String> shape, boolean zeros) {
    String n = "p" + params.size();
    params.add(new Param(n, shape, zeros));
    if (zeros) {
      features.add("Custom.zeros");
    }
    return n;
  }

  /** The layer annotation's simple name. */
  String name() {
    return name;
  }

  /** The output shape for the input shape given at construction ({@code -1} the batch). */
  int[] outputShape() {
    return outputShape.clone();
  }

  /** Whether the layer has parameters. */
  boolean hasParams() {
    return !params.isEmpty();
  }

  /** Multiply-adds per example. */
  long macs() {
    return macs;
  }

  /** What was drawn, for coverage reports. */
  List<String> features() {
    return features;
  }

  /** The annotation at its use site, e.g. {@code @Gen17L1(u0 = 5, scale = 0.5f)}. */
  String useSite() {
    List<String> parts = new ArrayList<>();
    for (Element e : elements.values()) {
      if (e.written()) {
        parts.add(e.name() + " = " + e.value());
      }
    }
    if (scaleWritten != null) {
      parts.add("scale = " + scaleWritten + "f");
    }
    return "@" + name + (parts.isEmpty() ? "" : "(" + String.join(", ", parts) + ")");
  }

  /** The layer's source file. */
  String source(String model, long seed) {
    StringBuilder s = new StringBuilder();
    s.append("package ").append(ModelGenerator.PACKAGE).append(";\n\n");
    s.append("import dev.kiln.annotations.Act;\n");
    s.append("import dev.kiln.annotations.Layer;\n");
    s.append("import dev.kiln.annotations.Param;\n");
    s.append("import dev.kiln.annotations.Sym;\n\n");
    s.append("/** A custom layer drawn for ")
        .append(model)
        .append(" (seed ")
        .append(seed)
        .append("). */\n");
    s.append("@Layer(input = ")
        .append(strings(input))
        .append(", output = ")
        .append(strings(output))
        .append(", forward = ")
        .append(name)
        .append(".Forward.class)\n");
    s.append("public @interface ").append(name).append(" {\n");
    for (Element e : elements.values()) {
      s.append("  /** Dimension ").append(e.name()).append(". */\n");
      s.append("  int ")
          .append(e.name())
          .append("()")
          .append(e.hasDefault() ? " default " + e.value() : "")
          .append(";\n\n");
    }
    if (scaleDefault != null) {
      s.append("  /** A constant factor. */\n");
      s.append("  float scale() default ").append(scaleDefault).append("f;\n\n");
    }
    s.append("  /** The forward pass, traced once when the graph is built. */\n");
    s.append("  final class Forward {\n");
    s.append("    private Forward() {}\n\n");
    s.append("    /** Computes the layer. */\n");
    List<String> args = new ArrayList<>();
    args.add("Sym x");
    for (Param p : params) {
      args.add(
          "@Param(shape = "
              + strings(p.shape())
              + (p.zeros() ? ", zeros = true" : "")
              + ") Sym "
              + p.name());
    }
    if (scaleDefault != null) {
      args.add("float scale");
    }
    s.append("    public static Sym apply(").append(String.join(", ", args)).append(") {\n");
    s.append("      return ").append(body).append(";\n");
    s.append("    }\n");
    s.append("  }\n");
    s.append("}\n");
    return s.toString();
  }

  private static String strings(List<String> tokens) {
    List<String> quoted = tokens.stream().map(t -> "\"" + t + "\"").toList();
    return "{" + String.join(", ", quoted) + "}";
  }
}
