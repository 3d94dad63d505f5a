package dev.kiln.processor.model;

import dev.kiln.annotations.ParamInit;
import dev.kiln.ops.emit.NodeCall;
import java.util.List;
import javax.lang.model.element.TypeElement;

/**
 * The emit plan of a custom layer's node, the processor's own kind of {@link NodeCall}: one
 * builder-made variable per parameter, then one traced call of its forward method ({@code
 * this.builder.custom}, or {@code this.builder.cell} for a recurrent cell).
 *
 * @param layer the layer annotation's simple name
 * @param cell whether the layer is a recurrent cell
 * @param input the node (or input) whose output it reads
 * @param inputPattern the layer's input pattern (one step's, for a cell), which names the axes the
 *     body's broadcasts are checked by
 * @param statePattern a cell's state pattern; empty for a layer without state
 * @param params its parameters, in the forward method's order
 * @param forwardType the class holding the forward method
 * @param forwardMethod the forward method's name
 * @param args the forward method's arguments after the input (and a cell's state)
 */
public record CustomCall(
    String layer,
    boolean cell,
    String input,
    List<String> inputPattern,
    List<String> statePattern,
    List<CustomCall.Param> params,
    TypeElement forwardType,
    String forwardMethod,
    List<CustomCall.ForwardArg> args)
    implements NodeCall {
  /** Copies the lists. */
  public CustomCall {
    inputPattern = List.copyOf(inputPattern);
    statePattern = List.copyOf(statePattern);
    params = List.copyOf(params);
    args = List.copyOf(args);
  }

  /**
   * One parameter a custom layer's node makes.
   *
   * @param local its Java name, for the local that holds it
   * @param role the role part of its MXNet name, e.g. {@code gate_weight}
   * @param name its MXNet name, whose shape constant the call passes
   * @param pattern its {@code @Param} shape pattern
   * @param init how it starts
   * @param value where it starts, with {@code init} {@code CONSTANT}
   */
  public record Param(
      String local, String role, String name, List<String> pattern, ParamInit init, double value) {
    /** Copies the pattern. */
    public Param {
      pattern = List.copyOf(pattern);
    }
  }

  /**
   * One argument of a custom layer's forward method after the input.
   *
   * @param param index into the parameters, or -1 for a constant
   * @param literal the constant as Java source, when {@code param} is -1
   */
  public record ForwardArg(int param, String literal) {}
}
