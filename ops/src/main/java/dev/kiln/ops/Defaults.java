package dev.kiln.ops;

import java.lang.annotation.Annotation;

/**
 * A layer attribute's default, read from the one place it is written: the annotation's own {@code
 * default} clause (e.g. {@code double alpha() default 1e-4} of {@code @Lrn}). A unit's factory
 * starts from these, and the processor leaves an attribute out of generated code when it equals its
 * default, so the annotation, the unit and generated code can never disagree.
 */
final class Defaults {
  private Defaults() {}

  /** The default of {@code annotation}'s attribute {@code attribute}, a {@code double}. */
  static double decimal(Class<? extends Annotation> annotation, String attribute) {
    return (Double) of(annotation, attribute);
  }

  /** The default of {@code annotation}'s attribute {@code attribute}, an {@code int}. */
  static int integer(Class<? extends Annotation> annotation, String attribute) {
    return (Integer) of(annotation, attribute);
  }

  /** The default of {@code annotation}'s attribute {@code attribute}, a {@code boolean}. */
  static boolean bool(Class<? extends Annotation> annotation, String attribute) {
    return (Boolean) of(annotation, attribute);
  }

  /** The default of {@code annotation}'s attribute {@code attribute}, an {@code int[]}. */
  static java.util.List<Integer> ints(Class<? extends Annotation> annotation, String attribute) {
    return java.util.Arrays.stream((int[]) of(annotation, attribute)).boxed().toList();
  }

  private static Object of(Class<? extends Annotation> annotation, String attribute) {
    Object value;
    try {
      value = annotation.getMethod(attribute).getDefaultValue();
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException(
          "@" + annotation.getSimpleName() + " has no attribute " + attribute, e);
    }
    if (value == null) {
      throw new IllegalArgumentException(
          "@" + annotation.getSimpleName() + "." + attribute + " has no default");
    }
    return value;
  }
}
