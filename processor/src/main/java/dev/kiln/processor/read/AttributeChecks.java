package dev.kiln.processor.read;

import dev.kiln.annotations.Act;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.LayerSpec;
import dev.kiln.processor.model.TShape;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;

/**
 * Checks the attribute values of a node's layer that need no shapes: counts, ranges, window
 * lengths, an input's shape and the syntax of a reshape. The first problem found is reported, on
 * the attribute at fault, and the node is dropped. Shapes are the check phase's.
 */
final class AttributeChecks implements LayerSpec.Visitor<Boolean> {
  private final Report report;
  private final ExecutableElement method;
  private final AnnotationMirror mirror;
  private final String where;
  private final String written;

  /**
   * Checks for the node declared by {@code method} with layer annotation {@code mirror}; {@code
   * where} names the node ({@code Net.conv()}) and {@code written} is the annotation as written.
   */
  AttributeChecks(
      Report report,
      ExecutableElement method,
      AnnotationMirror mirror,
      String where,
      String written) {
    this.report = report;
    this.method = method;
    this.mirror = mirror;
    this.where = where;
    this.written = written;
  }

  /** Whether {@code layer}'s attributes are valid; reports the first problem otherwise. */
  boolean check(LayerSpec layer) {
    return layer.accept(this);
  }

  @Override
  public Boolean visitInput(LayerSpec.Input in) {
    String name = method.getSimpleName().toString();
    if (in.shape().rank() == 0) {
      report.add(Message.INPUT_WITHOUT_SHAPE, method, mirror, "shape", where);
      return false;
    }
    for (int i = 0; i < in.shape().rank(); i++) {
      int d = in.shape().dim(i);
      if (d == 0 || d < 0 && d != TShape.BATCH && d != TShape.STEPS) {
        report.add(Message.BAD_INPUT_DIM, method, mirror, "shape", name, i, d);
        return false;
      }
    }
    return true;
  }

  @Override
  public Boolean visitDense(LayerSpec.Dense d) {
    if (d.units() <= 0) {
      report.add(
          Message.NON_POSITIVE, method, mirror, "units", where + " @Dense", "units", d.units());
      return false;
    }
    return true;
  }

  @Override
  public Boolean visitActivation(LayerSpec.Activation a) {
    if (a.activation() == Act.NONE) {
      report.add(Message.BAD_ACTIVATION, method, mirror, "value", where);
      return false;
    }
    return true;
  }

  @Override
  public Boolean visitSoftmax(LayerSpec.Softmax s) {
    return true; // the axis is checked against the input's rank
  }

  @Override
  public Boolean visitFlatten(LayerSpec.Flatten f) {
    return true; // no attributes
  }

  @Override
  public Boolean visitAdd(LayerSpec.Add a) {
    return true; // no attributes
  }

  @Override
  public Boolean visitConcat(LayerSpec.Concat c) {
    return true; // the axis is checked against the inputs' rank
  }

  @Override
  public Boolean visitConv2D(LayerSpec.Conv2D c) {
    return positive("filters", c.filters())
        && window("kernel", c.kernel(), true)
        && window("stride", c.stride(), true)
        && window("pad", c.pad(), false)
        && window("dilation", c.dilation(), true);
  }

  @Override
  public Boolean visitPool(LayerSpec.Pool p) {
    return window("kernel", p.kernel(), true)
        && (p.stride().isEmpty() || window("stride", p.stride(), true))
        && window("pad", p.pad(), false)
        && padBelowKernel(p);
  }

  @Override
  public Boolean visitGlobalAvgPool(LayerSpec.GlobalAvgPool g) {
    return true; // no attributes
  }

  @Override
  public Boolean visitReshape(LayerSpec.Reshape r) {
    String reason = reshapeSyntax(r.shape());
    if (reason != null) {
      report.add(Message.BAD_RESHAPE, method, mirror, "shape", prefix(), r.target(), reason);
      return false;
    }
    return true;
  }

  @Override
  public Boolean visitDropout(LayerSpec.Dropout d) {
    if (!(d.rate() >= 0 && d.rate() < 1)) {
      report.add(Message.RATE_OUT_OF_RANGE, method, mirror, "rate", prefix(), d.rate());
      return false;
    }
    return true;
  }

  @Override
  public Boolean visitBatchNorm(LayerSpec.BatchNorm b) {
    return eps(b.eps()) && momentum(b.momentum());
  }

  @Override
  public Boolean visitLayerNorm(LayerSpec.LayerNorm l) {
    return eps(l.eps());
  }

  @Override
  public Boolean visitEmbedding(LayerSpec.Embedding e) {
    return positive("inputDim", e.inputDim()) && positive("outputDim", e.outputDim());
  }

  @Override
  public Boolean visitRecurrent(LayerSpec.Recurrent r) {
    if (!positive("units", r.units()) || !positive("layers", r.layers())) {
      return false;
    }
    if (!(r.dropout() >= 0 && r.dropout() < 1)) {
      report.add(
          Message.OUT_OF_RANGE,
          method,
          mirror,
          "dropout",
          prefix(),
          "dropout",
          "in [0, 1) (the probability of dropping a value between stacked layers in training)",
          r.dropout());
      return false;
    }
    if (r.activation() != Act.TANH && r.activation() != Act.RELU) {
      report.add(
          Message.RECURRENT_ACTIVATION,
          method,
          mirror,
          "activation",
          prefix(),
          r.activation().name());
      return false;
    }
    if (r.stateful() && r.bidirectional()) {
      report.add(Message.STATEFUL_BIDIRECTIONAL, method, mirror, "stateful", prefix());
      return false;
    }
    return true;
  }

  @Override
  public Boolean visitCustom(LayerSpec.Custom c) {
    return true; // the layer's dimensions are checked as it is read
  }

  /** {@code Net.conv() @Conv2D(filters = 0, kernel = 3)}: how layer-library messages start. */
  private String prefix() {
    return where + " " + written;
  }

  private boolean positive(String attribute, int value) {
    if (value <= 0) {
      report.add(Message.NON_POSITIVE, method, mirror, attribute, prefix(), attribute, value);
      return false;
    }
    return true;
  }

  /** One or two values, each positive (or, for a pad, 0 or more). */
  private boolean window(String attribute, List<Integer> values, boolean positive) {
    if (values.size() != 1 && values.size() != 2) {
      report.add(Message.BAD_WINDOW, method, mirror, attribute, prefix(), attribute, values.size());
      return false;
    }
    for (int v : values) {
      if (positive && v <= 0) {
        report.add(Message.NON_POSITIVE, method, mirror, attribute, prefix(), attribute, v);
        return false;
      }
      if (!positive && v < 0) {
        report.add(Message.NEGATIVE, method, mirror, attribute, prefix(), attribute, v);
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
        report.add(
            Message.PAD_TOO_LARGE,
            method,
            mirror,
            "pad",
            prefix(),
            pad[axis],
            kernel[axis],
            axis == 0 ? "height" : "width");
        return false;
      }
    }
    return true;
  }

  private boolean eps(double eps) {
    if (!(eps > 0) || Double.isInfinite(eps)) {
      report.add(Message.OUT_OF_RANGE, method, mirror, "eps", prefix(), "eps", "positive", eps);
      return false;
    }
    return true;
  }

  private boolean momentum(double momentum) {
    if (!(momentum >= 0 && momentum <= 1)) {
      report.add(
          Message.OUT_OF_RANGE,
          method,
          mirror,
          "momentum",
          prefix(),
          "momentum",
          "in [0, 1]",
          momentum);
      return false;
    }
    return true;
  }

  /** The syntax of MXNet's reshape notation; sizes are checked against the input later. */
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
            return "the sizes after SPLIT (-4) at position "
                + i
                + " must be positive or -1 "
                + "(infer one of the two), got "
                + d;
          }
        }
        if (a == -1 && b == -1) {
          return "SPLIT (-4) at position " + i + " can infer only one of its two sizes";
        }
        i += 2;
      } else if (v < -4) {
        return v
            + " at position "
            + i
            + " is neither a size nor one of MXNet's special values "
            + "0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 (split one)";
      }
    }
    if (inferred > 1) {
      return "only one dimension can be inferred (BATCH or -1), got " + inferred;
    }
    return null;
  }
}
