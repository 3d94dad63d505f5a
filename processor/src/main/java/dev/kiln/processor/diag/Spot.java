package dev.kiln.processor.diag;

import javax.annotation.processing.Messager;
import javax.tools.Diagnostic;

/**
 * A place in the source that no element stands for, such as one operation inside a custom layer's
 * forward body: it prints a diagnostic there itself (javac's trees can, a {@link Messager} cannot).
 */
public interface Spot {
  /** Prints {@code text}, a diagnostic of {@code kind}, at this place. */
  void print(Messager messager, Diagnostic.Kind kind, String text);
}
