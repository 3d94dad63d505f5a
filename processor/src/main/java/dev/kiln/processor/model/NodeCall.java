package dev.kiln.processor.model;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.ParamInit;
import java.util.List;
import javax.lang.model.element.TypeElement;

/**
 * The emit plan of one node: the call of the runtime's graph builder that makes the node's MXNet
 * operators, decided by the node's op in the check phase and only formatted by the writers. Names
 * of generated members (the node method's parameters, the graph's shape constants) are referred to
 * by what they stand for; the writers know what they are called.
 */
public sealed interface NodeCall {
  /**
   * {@code return this.builder.<method>(SOURCE, <args>);}.
   *
   * @param method the graph builder's method, e.g. {@code dense}
   * @param args its arguments after the node's source
   */
  record Builder(String method, List<Arg> args) implements NodeCall {
    /** Copies the arguments. */
    public Builder {
      args = List.copyOf(args);
    }

    /** A call with the given arguments. */
    public static Builder of(String method, Arg... args) {
      return new Builder(method, List.of(args));
    }
  }

  /**
   * A custom layer: one builder-made variable per parameter, then one traced call of its forward
   * method ({@code this.builder.custom}, or {@code this.builder.cell} for a recurrent cell).
   *
   * @param layer the layer annotation's simple name
   * @param cell whether the layer is a recurrent cell
   * @param input the node (or input) whose output it reads
   * @param inputPattern the layer's input pattern (one step's, for a cell), which names the axes
   *     the body's broadcasts are checked by
   * @param statePattern a cell's state pattern; empty for a layer without state
   * @param params its parameters, in the forward method's order
   * @param forwardType the class holding the forward method
   * @param forwardMethod the forward method's name
   * @param args the forward method's arguments after the input (and a cell's state)
   */
  record Custom(
      String layer,
      boolean cell,
      String input,
      List<String> inputPattern,
      List<String> statePattern,
      List<CustomParam> params,
      TypeElement forwardType,
      String forwardMethod,
      List<ForwardArg> args)
      implements NodeCall {
    /** Copies the lists. */
    public Custom {
      inputPattern = List.copyOf(inputPattern);
      statePattern = List.copyOf(statePattern);
      params = List.copyOf(params);
      args = List.copyOf(args);
    }
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
  record CustomParam(
      String local, String role, String name, List<String> pattern, ParamInit init, double value) {
    /** Copies the pattern. */
    public CustomParam {
      pattern = List.copyOf(pattern);
    }
  }

  /**
   * One argument of a custom layer's forward method after the input.
   *
   * @param param index into the parameters, or -1 for a constant
   * @param literal the constant as Java source, when {@code param} is -1
   */
  record ForwardArg(int param, String literal) {}

  /** One argument of a builder call. */
  sealed interface Arg {}

  /**
   * The node method's parameter {@code index}.
   *
   * @param index which, from 0
   */
  record Input(int index) implements Arg {}

  /** Every parameter of the node method, in order. */
  record Inputs() implements Arg {}

  /**
   * The graph's shape constant of a node, parameter or auxiliary state.
   *
   * @param name the node's or the parameter's name
   */
  record ShapeOf(String name) implements Arg {}

  /**
   * A whole number; {@code BATCH} for {@link TShape#BATCH} when {@code batch}.
   *
   * @param value the number
   * @param batch whether -1 stands for {@code Dim.BATCH}
   */
  record Int(int value, boolean batch) implements Arg {
    /** A plain number. */
    public Int(int value) {
      this(value, false);
    }
  }

  /**
   * A decimal, written as a person would ({@code 0.001}, {@code 1e-5}).
   *
   * @param value the number
   */
  record Decimal(double value) implements Arg {}

  /**
   * A boolean.
   *
   * @param value the value
   */
  record Bool(boolean value) implements Arg {}

  /**
   * {@code Act.RELU}.
   *
   * @param act the activation
   */
  record Activation(Act act) implements Arg {}

  /**
   * A constant of one of the annotations' enums, {@code PoolConvention.FULL}.
   *
   * @param value the constant
   */
  record Constant(Enum<?> value) implements Arg {}

  /**
   * A runtime spec built by a chain of calls, {@code DenseSpec.units(128).activation(Act.RELU)}:
   * one line if it fits, else broken before each call.
   *
   * @param type the spec's simple name in {@code dev.kiln.runtime.graph}, e.g. {@code DenseSpec}
   * @param links the calls, the first a static factory
   */
  record Chain(String type, List<Link> links) implements Arg {
    /** Copies the links. */
    public Chain {
      links = List.copyOf(links);
    }
  }

  /**
   * One call of a {@link Chain}.
   *
   * @param method the method
   * @param args its arguments
   */
  record Link(String method, List<Arg> args) {
    /** Copies the arguments. */
    public Link {
      args = List.copyOf(args);
    }

    /** A call with the given arguments. */
    public static Link of(String method, Arg... args) {
      return new Link(method, List.of(args));
    }
  }
}
