package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an interface as a Kiln model. Every abstract method of the interface is one node of the
 * model's graph: the method's name is the node's name, its parameters name the nodes (or inputs) it
 * reads, and its annotation ({@link Input}, {@link Dense}, ...) says what it computes.
 *
 * <p>For {@code @Model interface FashionMlp} the annotation processor writes {@code
 * FashionMlpGraph}, {@code FashionMlpModel} and {@code FashionMlpExec} beside it.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Model {
  /**
   * Declares that the model is a classifier: its last node must be a {@link Softmax}, which
   * training rewrites into MXNet's {@code SoftmaxOutput} with a label input. The processor rejects
   * {@code classifier = true} on a model whose last node is not a softmax.
   */
  boolean classifier() default false;
}
