package dev.kiln.processor.model;

import dev.kiln.processor.diag.Spot;
import java.util.List;

/**
 * A custom layer's forward body as the compiler shows it: a straight line of {@code Sym} operations
 * on the forward method's parameters (locals of type {@code Sym}, each assigned once, then one
 * {@code return}), which the checker traces through the operator units' shape rules. A body that is
 * more than that (a loop, a helper method, a field), or one the compiler does not show (ecj, a
 * class file), is {@linkplain #unchecked() unchecked}: only the graph build traces it.
 *
 * @param names the forward method's parameters' names, in order
 * @param steps the operations, in the order the body computes them
 * @param result what the body returns
 * @param returned where it returns it
 * @param unchecked why the compiler cannot trace the body; null when it can
 */
public record ForwardBody(
    List<String> names, List<Step> steps, Operand result, Spot returned, String unchecked) {
  /** Copies the lists. */
  public ForwardBody {
    names = List.copyOf(names);
    steps = List.copyOf(steps);
  }

  /** A body the compiler cannot trace, for {@code why}. */
  public static ForwardBody unchecked(String why) {
    return new ForwardBody(List.of(), List.of(), null, null, why);
  }

  /** Whether the compiler can trace the body. */
  public boolean checked() {
    return unchecked == null;
  }

  /** A value an operation reads: a parameter of the forward method or an earlier step's result. */
  public sealed interface Operand permits Arg, Made {}

  /**
   * Parameter {@code index} of the forward method (0 the layer's input, 1 a cell's previous state).
   *
   * @param index its position among the forward method's parameters
   */
  public record Arg(int index) implements Operand {}

  /**
   * The result of step {@code step}.
   *
   * @param step its position in {@link #steps()}
   */
  public record Made(int step) implements Operand {}

  /**
   * One {@code Sym} operation: {@code receiver.op(...)}.
   *
   * @param op the {@code Sym} method, e.g. {@code dot}
   * @param receiver the value it is called on
   * @param other its {@code Sym} argument, or null
   * @param ints its {@code int} arguments (an axis, a reshape's sizes), each a number or the name
   *     of an int element of the layer, given where the layer is used
   * @param flag its {@code boolean} argument ({@code batchDot}'s {@code transposeOther})
   * @param text the operation as written, e.g. {@code x.dot(weight)}
   * @param spot where it is written
   */
  public record Step(
      String op,
      Operand receiver,
      Operand other,
      List<String> ints,
      boolean flag,
      String text,
      Spot spot) {
    /** Copies the arguments. */
    public Step {
      ints = List.copyOf(ints);
    }
  }
}
