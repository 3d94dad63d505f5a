package dev.kiln.ops.emit;

import dev.kiln.annotations.Act;
import dev.kiln.ops.rule.TShape;
import java.util.List;

/**
 * The emit plan of one node: the call of the runtime's graph builder that makes the node's MXNet
 * operators, decided by the node's op in the check phase and only formatted by the writers. A
 * built-in operator's plan is a {@link Builder} call; the processor adds its own kind for custom
 * layers. Names of generated members (the node method's parameters, the graph's shape constants)
 * are referred to by what they stand for; the writers know what they are called.
 */
public interface NodeCall {
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
   * An operator unit built by a chain of calls, {@code DenseOp.units(128).activation(Act.RELU)}:
   * one line if it fits, else broken before each call.
   *
   * @param type the unit's class, e.g. {@code DenseOp}
   * @param links the calls, the first a static factory
   */
  record Chain(Class<?> type, List<Link> links) implements Arg {
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
