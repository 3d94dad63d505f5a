package dev.kiln.processor.diag;

import dev.kiln.ops.rule.Message;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.tools.Diagnostic;

/**
 * The diagnostics found for one model, collected by every phase and printed once. Each points at an
 * element and, where there is one, the annotation and the value at fault.
 */
public final class Report {
  private record Item(
      Message message,
      String text,
      Element element,
      AnnotationMirror mirror,
      AnnotationValue value,
      Spot spot) {}

  private final List<Item> items = new ArrayList<>();

  /** Reports {@code message} on {@code element}. */
  public void add(Message message, Element element, Object... args) {
    add(new Item(message, message.format(args), element, null, null, null));
  }

  /** Reports {@code message} at {@code spot}, a place in the source no element stands for. */
  public void addAt(Message message, Spot spot, Object... args) {
    add(new Item(message, message.format(args), null, null, null, spot));
  }

  /**
   * Reports {@code message} on {@code element}'s annotation {@code mirror}, underlining the value
   * of {@code attribute} when it was written explicitly.
   */
  public void add(
      Message message, Element element, AnnotationMirror mirror, String attribute, Object... args) {
    add(
        new Item(
            message,
            message.format(args),
            element,
            mirror,
            attribute == null ? null : valueOf(mirror, attribute),
            null));
  }

  /**
   * Adds {@code item} unless the same text is already reported at the same place: the outputs of
   * one imported file node break its rules alike, and one mistake gives one error.
   */
  private void add(Item item) {
    if (!items.contains(item)) {
      items.add(item);
    }
  }

  /** Whether any error (not warning) was reported. */
  public boolean hasErrors() {
    return items.stream().anyMatch(i -> i.message().kind() == Message.Kind.ERROR);
  }

  /** The texts of the diagnostics of {@code kind}, in the order found. */
  public List<String> texts(Diagnostic.Kind kind) {
    return items.stream().filter(i -> kind(i.message()) == kind).map(Item::text).toList();
  }

  /** Prints every diagnostic, in the order found. */
  public void printTo(Messager messager) {
    for (Item i : items) {
      if (i.spot() != null) {
        i.spot().print(messager, kind(i.message()), i.text());
      } else if (i.value() != null) {
        messager.printMessage(kind(i.message()), i.text(), i.element(), i.mirror(), i.value());
      } else if (i.mirror() != null) {
        messager.printMessage(kind(i.message()), i.text(), i.element(), i.mirror());
      } else {
        messager.printMessage(kind(i.message()), i.text(), i.element());
      }
    }
  }

  /** The explicitly written value of {@code attribute} in {@code mirror}, or null. */
  public static AnnotationValue valueOf(AnnotationMirror mirror, String attribute) {
    if (mirror == null) {
      return null;
    }
    for (var e : mirror.getElementValues().entrySet()) {
      ExecutableElement key = e.getKey();
      if (key.getSimpleName().contentEquals(attribute)) {
        return e.getValue();
      }
    }
    return null;
  }

  /** How javac shows {@code message}: an error, a warning or a note. */
  private static Diagnostic.Kind kind(Message message) {
    return switch (message.kind()) {
      case ERROR -> Diagnostic.Kind.ERROR;
      case WARNING -> Diagnostic.Kind.WARNING;
      case NOTE -> Diagnostic.Kind.NOTE;
      case OTHER -> Diagnostic.Kind.OTHER;
    };
  }
}
