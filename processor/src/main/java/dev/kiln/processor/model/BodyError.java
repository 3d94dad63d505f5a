package dev.kiln.processor.model;

import dev.kiln.ops.rule.Message;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.diag.Spot;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;

/**
 * A custom layer's forward body that breaks a shape rule when traced at compile time, reported
 * where the mistake is written rather than on the model's node: on a {@code @Param}'s shape, or on
 * the operation in the body. Thrown by the custom layer's shape rule and caught by the checker,
 * like a {@link dev.kiln.ops.rule.RuleError}; it never leaves that phase.
 */
public final class BodyError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Message message;
  private final transient Object[] args;
  private final transient Spot spot;
  private final transient Element element;
  private final transient AnnotationMirror mirror;
  private final String attribute;

  private BodyError(
      Message message,
      Object[] args,
      Spot spot,
      Element element,
      AnnotationMirror mirror,
      String attribute) {
    super(message.id(), null, false, false);
    this.message = message;
    this.args = args;
    this.spot = spot;
    this.element = element;
    this.mirror = mirror;
    this.attribute = attribute;
  }

  /** {@code message} at {@code spot}, an operation in the body. */
  public static BodyError at(Spot spot, Message message, Object... args) {
    return new BodyError(message, args, spot, null, null, null);
  }

  /** {@code message} on {@code attribute} of annotation {@code mirror} on {@code element}. */
  public static BodyError on(
      Element element, AnnotationMirror mirror, String attribute, Message message, Object... args) {
    return new BodyError(message, args, null, element, mirror, attribute);
  }

  /** Adds the error to {@code report}. */
  public void reportTo(Report report) {
    if (spot != null) {
      report.addAt(message, spot, args);
    } else {
      report.add(message, element, mirror, attribute, args);
    }
  }
}
