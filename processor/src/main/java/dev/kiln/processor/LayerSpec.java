package dev.kiln.processor;

import dev.kiln.annotations.Act;

/**
 * What one node computes, read from its annotation. One record per built-in layer; the shape
 * rule of each lives in {@link ShapeRules}, its code generation in {@link GraphWriter}.
 */
sealed interface LayerSpec {
  /** The annotation's simple name, e.g. {@code Dense}. */
  String annotation();

  /** The MXNet operator the node emits, for tables. */
  String op();

  /** How many inputs the layer takes: exact count, or minimum when {@link #variadic()}. */
  int arity();

  /** Whether {@link #arity()} is a minimum. */
  default boolean variadic() {
    return false;
  }

  /** {@code @Input(shape = ...)}. */
  record Input(TShape shape) implements LayerSpec {
    public String annotation() {
      return "Input";
    }

    public String op() {
      return "variable";
    }

    public int arity() {
      return 0;
    }
  }

  /** {@code @Dense}. */
  record Dense(int units, Act activation, boolean noBias, boolean flatten) implements LayerSpec {
    public String annotation() {
      return "Dense";
    }

    public String op() {
      return activation == Act.NONE ? "FullyConnected"
          : "FullyConnected+Activation(" + activation.mxnetName() + ")";
    }

    public int arity() {
      return 1;
    }
  }

  /** {@code @Activation}. */
  record Activation(Act activation) implements LayerSpec {
    public String annotation() {
      return "Activation";
    }

    public String op() {
      return "Activation(" + activation.mxnetName() + ")";
    }

    public int arity() {
      return 1;
    }
  }

  /** {@code @Softmax}. */
  record Softmax(int axis) implements LayerSpec {
    public String annotation() {
      return "Softmax";
    }

    public String op() {
      return "softmax";
    }

    public int arity() {
      return 1;
    }
  }

  /** {@code @Flatten}. */
  record Flatten() implements LayerSpec {
    public String annotation() {
      return "Flatten";
    }

    public String op() {
      return "Flatten";
    }

    public int arity() {
      return 1;
    }
  }

  /** {@code @Add}. */
  record Add() implements LayerSpec {
    public String annotation() {
      return "Add";
    }

    public String op() {
      return "elemwise_add";
    }

    public int arity() {
      return 2;
    }

    public boolean variadic() {
      return true;
    }
  }

  /** {@code @Concat}. */
  record Concat(int axis) implements LayerSpec {
    public String annotation() {
      return "Concat";
    }

    public String op() {
      return "Concat";
    }

    public int arity() {
      return 2;
    }

    public boolean variadic() {
      return true;
    }
  }

  /**
   * A custom layer: an annotation type annotated {@code @Layer}, used like a built-in.
   *
   * @param layerName the layer annotation's simple name, e.g. {@code Affine}
   * @param forwardType the class holding the forward method
   * @param forwardMethod the forward method's name
   * @param input the input's shape pattern
   * @param output the output's shape pattern
   * @param dims the layer's int elements as written where it is used (dimension values)
   * @param params the layer's parameters, in the forward method's order
   * @param args the forward method's arguments after the input, in order
   */
  record Custom(String layerName, javax.lang.model.element.TypeElement forwardType,
      String forwardMethod, java.util.List<String> input, java.util.List<String> output,
      java.util.Map<String, Integer> dims, java.util.List<CustomParam> params,
      java.util.List<ForwardArg> args) implements LayerSpec {
    public String annotation() {
      return layerName;
    }

    public String op() {
      return "custom " + layerName;
    }

    public int arity() {
      return 1;
    }
  }

  /**
   * A parameter of a custom layer.
   *
   * @param name its name in the forward method; MXNet's name is {@code <node>_<name>}
   * @param shape its shape pattern
   * @param zeros whether it starts at zero
   */
  record CustomParam(String name, java.util.List<String> shape, boolean zeros) {}

  /**
   * One argument of a custom layer's forward method after the input: a parameter (by index into
   * {@link Custom#params()}) or a constant taken from the layer annotation.
   *
   * @param param index of the parameter, or -1 for a constant
   * @param literal the constant as Java source, when {@code param} is -1
   */
  record ForwardArg(int param, String literal) {}
}
