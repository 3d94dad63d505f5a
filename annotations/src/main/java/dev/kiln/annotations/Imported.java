package dev.kiln.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A graph imported from an MXNet symbol file ({@code -symbol.json}, as MXNet 0.8 to 1.9, Gluon's
 * {@code export}, the Module API or Kiln write it), as one node of a model. The processor reads the
 * file when it compiles the model, checks every node of it with the rules of Kiln's built-in layers
 * and lists each in the layer table; the node's output is the file node named by {@link #output()}.
 *
 * <pre>{@code
 * @Model(classifier = true)
 * public interface FineTuned {
 *   @Input(shape = {BATCH, 3, 224, 224}) Sym data();
 *   @Frozen @Imported(symbol = "resnet18-symbol.json", output = "flatten0") Sym features(Sym data);
 *   @Dense(units = 10) Sym logits(Sym features);
 *   @Softmax Sym probs(Sym logits);
 * }
 * }</pre>
 *
 * <p>Each parameter of the method feeds the file's input variable of the same name (the {@link
 * From} of a parameter still names the node it reads; a file input whose name is not a Java
 * identifier is fed by the parameter named as it with every other character an underscore). The
 * file's nodes keep their names, and their parameters the file's names ({@code conv0_weight}), so
 * the file's own {@code .params} loads into the model and a saved checkpoint loads into MXNet and
 * DJL with the original symbol file; the node's output is named after the method.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Imported {
  /**
   * The symbol file, found as a class-path resource is: relative to the model's package, or from
   * the root with a leading {@code /}; also in the source path and beside the model's source file.
   */
  String symbol() default "";

  /**
   * The ONNX model file ({@code .onnx}, operator sets 6 to 21), found as {@link #symbol()} is; give
   * this or {@code symbol}, not both. Its initializers become the node's parameters under their
   * ONNX names, which {@code loadImported} reads from the file itself.
   */
  String onnx() default "";

  /**
   * The name of the file node whose output the node is (the graph is cut there: only that node and
   * what it reads are imported); by default the file's single output. A head that is MXNet's {@code
   * SoftmaxOutput} imports as a classifier's softmax head, {@code LinearRegressionOutput} as {@link
   * L2Loss} and {@code LogisticRegressionOutput} as {@link LogisticLoss}.
   */
  String output() default "";
}
