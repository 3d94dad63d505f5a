package dev.kiln.processor.read;

import dev.kiln.ops.Op;
import dev.kiln.ops.OpReader;
import dev.kiln.ops.Ops;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/** The built-in layers ({@link Ops}) as the compiler shows their annotations. */
final class Builtins {
  private Builtins() {}

  /** The reader of the built-in layer {@code mirror} is, or null when it is another annotation. */
  static OpReader<?> of(AnnotationMirror mirror) {
    return Ops.of(name(mirror));
  }

  /** Whether {@code mirror} is {@code @Input}, whose shape messages write with BATCH and STEPS. */
  static boolean isInput(AnnotationMirror mirror) {
    return Ops.isInput(name(mirror));
  }

  /** The op of {@code method}, which carries {@code reader}'s annotation. */
  static <A extends java.lang.annotation.Annotation> Op read(
      OpReader<A> reader, ExecutableElement method) {
    return reader.read(method::getAnnotation);
  }

  private static String name(AnnotationMirror mirror) {
    return ((TypeElement) mirror.getAnnotationType().asElement()).getQualifiedName().toString();
  }
}
