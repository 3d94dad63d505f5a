package dev.kiln.ops.rule;

import java.util.List;

/**
 * Where an op's attributes are checked: the node's name and declaration, its annotation as written,
 * and the checks several ops share. A failed check throws a {@link RuleError} on the attribute at
 * fault, which the reader reports; the first problem found is the one reported.
 *
 * @param name the node's name, e.g. {@code conv}
 * @param where how messages name the node, e.g. {@code Net.conv()}
 * @param written the annotation as written, e.g. {@code @Conv2D(filters = 0, kernel = 3)}
 */
public record AttributeSite(String name, String where, String written) {
  /** {@code Net.conv() @Conv2D(filters = 0, kernel = 3)}: how layer-library messages start. */
  public String prefix() {
    return where + " " + written;
  }

  /** Fails with {@code message} and {@code args}, underlining {@code attribute}. */
  public RuleError fail(Message message, String attribute, Object... args) {
    return new RuleError(message, attribute, args);
  }

  /** {@code value} must be positive. */
  public void positive(String attribute, int value) {
    if (value <= 0) {
      throw fail(Message.NON_POSITIVE, attribute, prefix(), attribute, value);
    }
  }

  /**
   * A window attribute of {@code spatial} dimensions: one value (for every dimension) or one per
   * dimension, each positive (or, unless {@code positive}, 0 or more).
   */
  public void window(String attribute, List<Integer> values, int spatial, boolean positive) {
    if (values.size() != 1 && values.size() != spatial) {
      throw fail(Message.BAD_WINDOW, attribute, prefix(), attribute, values.size());
    }
    for (int v : values) {
      if (positive && v <= 0) {
        throw fail(Message.NON_POSITIVE, attribute, prefix(), attribute, v);
      }
      if (!positive && v < 0) {
        throw fail(Message.NEGATIVE, attribute, prefix(), attribute, v);
      }
    }
  }

  /** A normalisation's epsilon: positive and finite. */
  public void eps(double eps) {
    if (!(eps > 0) || Double.isInfinite(eps)) {
      throw fail(Message.OUT_OF_RANGE, "eps", prefix(), "eps", "positive", eps);
    }
  }

  /** A moving average's momentum: in {@code [0, 1]}. */
  public void momentum(double momentum) {
    if (!(momentum >= 0 && momentum <= 1)) {
      throw fail(Message.OUT_OF_RANGE, "momentum", prefix(), "momentum", "in [0, 1]", momentum);
    }
  }
}
