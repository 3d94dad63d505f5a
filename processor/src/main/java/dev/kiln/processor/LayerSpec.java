package dev.kiln.processor;

import dev.kiln.annotations.Act;
import java.util.List;

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
   * {@code @Conv2D}. Window attributes hold one or two values as written; {@link #pair} reads
   * them as {@code {height, width}}.
   */
  record Conv2D(int filters, List<Integer> kernel, List<Integer> stride, List<Integer> pad,
      List<Integer> dilation, Act activation, boolean noBias) implements LayerSpec {
    public Conv2D {
      kernel = List.copyOf(kernel);
      stride = List.copyOf(stride);
      pad = List.copyOf(pad);
      dilation = List.copyOf(dilation);
    }

    public String annotation() {
      return "Conv2D";
    }

    public String op() {
      return activation == Act.NONE ? "Convolution"
          : "Convolution+Activation(" + activation.mxnetName() + ")";
    }

    public int arity() {
      return 1;
    }
  }

  /**
   * {@code @MaxPool} ({@code max}) or {@code @AvgPool} ({@code avg}); an empty {@code stride}
   * means the kernel.
   */
  record Pool(String type, List<Integer> kernel, List<Integer> stride, List<Integer> pad)
      implements LayerSpec {
    public Pool {
      kernel = List.copyOf(kernel);
      stride = List.copyOf(stride);
      pad = List.copyOf(pad);
    }

    public String annotation() {
      return type.equals("max") ? "MaxPool" : "AvgPool";
    }

    public String op() {
      return "Pooling(" + type + ")";
    }

    public int arity() {
      return 1;
    }

    /** The stride as {@code {height, width}}: the kernel's when none was given. */
    int[] effectiveStride() {
      return stride.isEmpty() ? pair(kernel) : pair(stride);
    }
  }

  /** {@code @GlobalAvgPool}. */
  record GlobalAvgPool() implements LayerSpec {
    public String annotation() {
      return "GlobalAvgPool";
    }

    public String op() {
      return "Pooling(global avg)";
    }

    public int arity() {
      return 1;
    }
  }

  /** {@code @Reshape}, in MXNet's notation with its special values. */
  record Reshape(List<Integer> shape) implements LayerSpec {
    public Reshape {
      shape = List.copyOf(shape);
    }

    public String annotation() {
      return "Reshape";
    }

    public String op() {
      return "Reshape";
    }

    public int arity() {
      return 1;
    }
  }

  /** {@code @Dropout}. */
  record Dropout(double rate) implements LayerSpec {
    public String annotation() {
      return "Dropout";
    }

    public String op() {
      return "Dropout";
    }

    public int arity() {
      return 1;
    }
  }

  /** {@code @BatchNorm}. */
  record BatchNorm(double eps, double momentum, int axis) implements LayerSpec {
    public String annotation() {
      return "BatchNorm";
    }

    public String op() {
      return "BatchNorm";
    }

    public int arity() {
      return 1;
    }
  }

  /** {@code @LayerNorm}. */
  record LayerNorm(int axis, double eps) implements LayerSpec {
    public String annotation() {
      return "LayerNorm";
    }

    public String op() {
      return "LayerNorm";
    }

    public int arity() {
      return 1;
    }
  }

  /** {@code @Embedding}. */
  record Embedding(int inputDim, int outputDim) implements LayerSpec {
    public String annotation() {
      return "Embedding";
    }

    public String op() {
      return "Embedding";
    }

    public int arity() {
      return 1;
    }
  }

  /** A window attribute of one or two values as {@code {height, width}}. */
  static int[] pair(List<Integer> values) {
    return values.size() == 1 ? new int[] {values.get(0), values.get(0)}
        : new int[] {values.get(0), values.get(1)};
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
