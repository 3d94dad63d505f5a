package dev.kiln.processor;

import java.util.List;
import java.util.stream.Collectors;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;

/**
 * Checks the attribute values of the layer library's annotations ({@code @Conv2D}, the pools,
 * {@code @Reshape}, {@code @Dropout}, the normalisations, {@code @Embedding}) that need no
 * shapes: counts, ranges, window lengths and the syntax of a reshape. The first problem found is
 * reported, on the attribute at fault, and the node is dropped.
 */
final class LayerAttributes {
  private final Report report;
  private final ExecutableElement method;
  private final AnnotationMirror mirror;
  private final String where;

  /**
   * Checks for the node declared by {@code method} with layer annotation {@code mirror}; {@code
   * where} starts every message, e.g. {@code Net.conv() @Conv2D(filters = 0, kernel = 3)}.
   */
  LayerAttributes(Report report, ExecutableElement method, AnnotationMirror mirror,
      String where) {
    this.report = report;
    this.method = method;
    this.mirror = mirror;
    this.where = where;
  }

  /** Whether {@code layer}'s attributes are valid; reports the first problem otherwise. */
  boolean check(LayerSpec layer) {
    if (layer instanceof LayerSpec.Conv2D c) {
      return positive("filters", c.filters())
          && window("kernel", c.kernel(), true)
          && window("stride", c.stride(), true)
          && window("pad", c.pad(), false)
          && window("dilation", c.dilation(), true);
    }
    if (layer instanceof LayerSpec.Pool p) {
      return window("kernel", p.kernel(), true)
          && (p.stride().isEmpty() || window("stride", p.stride(), true))
          && window("pad", p.pad(), false)
          && padBelowKernel(p);
    }
    if (layer instanceof LayerSpec.Reshape r) {
      return reshape(r.shape());
    }
    if (layer instanceof LayerSpec.Dropout d) {
      if (!(d.rate() >= 0 && d.rate() < 1)) {
        report.add(Message.RATE_OUT_OF_RANGE, method, mirror, "rate", where, d.rate());
        return false;
      }
      return true;
    }
    if (layer instanceof LayerSpec.BatchNorm b) {
      return eps(b.eps()) && momentum(b.momentum());
    }
    if (layer instanceof LayerSpec.LayerNorm l) {
      return eps(l.eps());
    }
    if (layer instanceof LayerSpec.Embedding e) {
      return positive("inputDim", e.inputDim()) && positive("outputDim", e.outputDim());
    }
    return true;
  }

  private boolean positive(String attribute, int value) {
    if (value <= 0) {
      report.add(Message.NON_POSITIVE, method, mirror, attribute, where, attribute, value);
      return false;
    }
    return true;
  }

  /** One or two values, each positive (or, for a pad, 0 or more). */
  private boolean window(String attribute, List<Integer> values, boolean positive) {
    if (values.size() != 1 && values.size() != 2) {
      report.add(Message.BAD_WINDOW, method, mirror, attribute, where, attribute, values.size());
      return false;
    }
    for (int v : values) {
      if (positive && v <= 0) {
        report.add(Message.NON_POSITIVE, method, mirror, attribute, where, attribute, v);
        return false;
      }
      if (!positive && v < 0) {
        report.add(Message.NEGATIVE, method, mirror, attribute, where, attribute, v);
        return false;
      }
    }
    return true;
  }

  private boolean padBelowKernel(LayerSpec.Pool p) {
    int[] kernel = LayerSpec.pair(p.kernel());
    int[] pad = LayerSpec.pair(p.pad());
    for (int axis = 0; axis < 2; axis++) {
      if (pad[axis] >= kernel[axis]) {
        report.add(Message.PAD_TOO_LARGE, method, mirror, "pad", where, pad[axis], kernel[axis],
            axis == 0 ? "height" : "width");
        return false;
      }
    }
    return true;
  }

  private boolean eps(double eps) {
    if (!(eps > 0) || Double.isInfinite(eps)) {
      report.add(Message.OUT_OF_RANGE, method, mirror, "eps", where, "eps", "positive", eps);
      return false;
    }
    return true;
  }

  private boolean momentum(double momentum) {
    if (!(momentum >= 0 && momentum <= 1)) {
      report.add(Message.OUT_OF_RANGE, method, mirror, "momentum", where, "momentum",
          "in [0, 1]", momentum);
      return false;
    }
    return true;
  }

  /** The syntax of MXNet's reshape notation; sizes are checked against the input later. */
  private boolean reshape(List<Integer> shape) {
    String reason = reshapeSyntax(shape);
    if (reason != null) {
      report.add(Message.BAD_RESHAPE, method, mirror, "shape", where, render(shape), reason);
      return false;
    }
    return true;
  }

  private static String reshapeSyntax(List<Integer> shape) {
    if (shape.isEmpty()) {
      return "the shape is empty; give at least one dimension";
    }
    int inferred = 0;
    for (int i = 0; i < shape.size(); i++) {
      int v = shape.get(i);
      if (v == -1) {
        inferred++;
      } else if (v == -4) {
        if (i + 2 >= shape.size()) {
          return "SPLIT (-4) at position " + i + " needs the two sizes it splits into after it";
        }
        int a = shape.get(i + 1);
        int b = shape.get(i + 2);
        for (int d : new int[] {a, b}) {
          if (d <= 0 && d != -1) {
            return "the sizes after SPLIT (-4) at position " + i + " must be positive or -1 "
                + "(infer one of the two), got " + d;
          }
        }
        if (a == -1 && b == -1) {
          return "SPLIT (-4) at position " + i + " can infer only one of its two sizes";
        }
        i += 2;
      } else if (v < -4) {
        return v + " at position " + i + " is neither a size nor one of MXNet's special values "
            + "0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 (split one)";
      }
    }
    if (inferred > 1) {
      return "only one dimension can be inferred (BATCH or -1), got " + inferred;
    }
    return null;
  }

  /** {@code {BATCH, 1, 28, 28}}: a reshape target as written, -1 as BATCH. */
  static String render(List<Integer> shape) {
    return shape.stream().map(d -> d == -1 ? "BATCH" : d.toString())
        .collect(Collectors.joining(", ", "{", "}"));
  }
}
