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
}
