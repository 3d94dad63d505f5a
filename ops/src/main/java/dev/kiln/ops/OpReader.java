package dev.kiln.ops;

import java.lang.annotation.Annotation;
import java.util.List;
import java.util.function.Function;

/**
 * How one built-in layer annotation is read into its {@link Op}, and the order in which its
 * attributes are written in messages, tables and generated code. Compilers list the elements of an
 * annotation read from a class file in different orders (ecj is not javac), so nothing may depend
 * on theirs.
 *
 * @param annotation the annotation type
 * @param attributes its attributes in the order they are written
 * @param reader the op an annotation with valid values stands for
 * @param <A> the annotation type
 */
public record OpReader<A extends Annotation>(
    Class<A> annotation, List<String> attributes, Function<A, Op> reader) {
  /** Copies the attributes. */
  public OpReader {
    attributes = List.copyOf(attributes);
  }

  /** A reader of {@code annotation}, whose attributes are written in the order given. */
  static <A extends Annotation> OpReader<A> of(
      Class<A> annotation, Function<A, Op> reader, String... attributes) {
    return new OpReader<>(annotation, List.of(attributes), reader);
  }

  /**
   * The op of the annotation {@code lookup} finds for this reader's type: e.g. {@code
   * method::getAnnotation} in a compiler, which gives the values as written with the annotation's
   * defaults for the rest.
   */
  public Op read(Function<Class<A>, A> lookup) {
    return reader.apply(lookup.apply(annotation));
  }
}
