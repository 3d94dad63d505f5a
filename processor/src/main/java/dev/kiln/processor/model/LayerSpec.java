package dev.kiln.processor.model;

import dev.kiln.annotations.Act;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.lang.model.element.TypeElement;

/**
 * What one node computes, read from its annotation: one record per built-in layer and one for
 * custom layers. The interface is sealed and every phase handles a layer through a {@link Visitor}
 * with one method per record, so a new layer does not compile until the attribute checks, the shape
 * rules, the cost estimates and the code emitter all handle it.
 */
public sealed interface LayerSpec {
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

  /**
   * Whether the node's body is only known when the graph is built: its output shape is then the
   * layer's declared contract, checked against the traced body at build time.
   */
  default boolean tracedAtBuild() {
    return false;
  }

  /** Calls the method of {@code visitor} for this layer. */
  <R> R accept(Visitor<R> visitor);

  /**
   * One method per layer. Every phase that treats layers differently implements it, so that the
   * compiler finds every place a new layer must be handled.
   *
   * @param <R> what the phase makes of a layer
   */
  interface Visitor<R> {
    /** {@code @Input}. */
    R visitInput(Input layer);

    /** {@code @Dense}. */
    R visitDense(Dense layer);

    /** {@code @Activation}. */
    R visitActivation(Activation layer);

    /** {@code @Softmax}. */
    R visitSoftmax(Softmax layer);

    /** {@code @Flatten}. */
    R visitFlatten(Flatten layer);

    /** {@code @Add}. */
    R visitAdd(Add layer);

    /** {@code @Concat}. */
    R visitConcat(Concat layer);

    /** {@code @Conv2D}. */
    R visitConv2D(Conv2D layer);

    /** {@code @MaxPool} and {@code @AvgPool}. */
    R visitPool(Pool layer);

    /** {@code @GlobalAvgPool}. */
    R visitGlobalAvgPool(GlobalAvgPool layer);

    /** {@code @Reshape}. */
    R visitReshape(Reshape layer);

    /** {@code @Dropout}. */
    R visitDropout(Dropout layer);

    /** {@code @BatchNorm}. */
    R visitBatchNorm(BatchNorm layer);

    /** {@code @LayerNorm}. */
    R visitLayerNorm(LayerNorm layer);

    /** {@code @Embedding}. */
    R visitEmbedding(Embedding layer);

    /** {@code @Rnn}, {@code @Lstm} and {@code @Gru}. */
    R visitRecurrent(Recurrent layer);

    /** A custom {@code @Layer}. */
    R visitCustom(Custom layer);
  }

  /**
   * {@code @Input(shape = ...)}.
   *
   * @param shape the declared shape
   */
  record Input(TShape shape) implements LayerSpec {
    @Override
    public String annotation() {
      return "Input";
    }

    @Override
    public String op() {
      return "variable";
    }

    @Override
    public int arity() {
      return 0;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitInput(this);
    }
  }

  /**
   * {@code @Dense}.
   *
   * @param units output features
   * @param activation applied after the layer, or {@code Act.NONE}
   * @param noBias whether the layer has no bias
   * @param flatten whether an input of rank above 2 is flattened first
   */
  record Dense(int units, Act activation, boolean noBias, boolean flatten) implements LayerSpec {
    @Override
    public String annotation() {
      return "Dense";
    }

    @Override
    public String op() {
      return activation == Act.NONE
          ? "FullyConnected"
          : "FullyConnected+Activation(" + activation.mxnetName() + ")";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitDense(this);
    }
  }

  /**
   * {@code @Activation}.
   *
   * @param activation the function
   */
  record Activation(Act activation) implements LayerSpec {
    @Override
    public String annotation() {
      return "Activation";
    }

    @Override
    public String op() {
      return "Activation(" + activation.mxnetName() + ")";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitActivation(this);
    }
  }

  /**
   * {@code @Softmax}.
   *
   * @param axis the axis normalised over
   */
  record Softmax(int axis) implements LayerSpec {
    @Override
    public String annotation() {
      return "Softmax";
    }

    @Override
    public String op() {
      return "softmax";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitSoftmax(this);
    }
  }

  /** {@code @Flatten}. */
  record Flatten() implements LayerSpec {
    @Override
    public String annotation() {
      return "Flatten";
    }

    @Override
    public String op() {
      return "Flatten";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitFlatten(this);
    }
  }

  /** {@code @Add}. */
  record Add() implements LayerSpec {
    @Override
    public String annotation() {
      return "Add";
    }

    @Override
    public String op() {
      return "elemwise_add";
    }

    @Override
    public int arity() {
      return 2;
    }

    @Override
    public boolean variadic() {
      return true;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitAdd(this);
    }
  }

  /**
   * {@code @Concat}.
   *
   * @param axis the axis along which the inputs are joined
   */
  record Concat(int axis) implements LayerSpec {
    @Override
    public String annotation() {
      return "Concat";
    }

    @Override
    public String op() {
      return "Concat";
    }

    @Override
    public int arity() {
      return 2;
    }

    @Override
    public boolean variadic() {
      return true;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitConcat(this);
    }
  }

  /**
   * {@code @Conv2D}. Window attributes hold one or two values as written; {@link #pair} reads them
   * as {@code {height, width}}.
   *
   * @param filters output channels
   * @param kernel window size
   * @param stride window step
   * @param pad zeros added on each side
   * @param dilation spacing of the window's taps
   * @param activation applied after the layer, or {@code Act.NONE}
   * @param noBias whether the layer has no bias
   */
  record Conv2D(
      int filters,
      List<Integer> kernel,
      List<Integer> stride,
      List<Integer> pad,
      List<Integer> dilation,
      Act activation,
      boolean noBias)
      implements LayerSpec {
    /** Copies the window attributes. */
    public Conv2D {
      kernel = List.copyOf(kernel);
      stride = List.copyOf(stride);
      pad = List.copyOf(pad);
      dilation = List.copyOf(dilation);
    }

    @Override
    public String annotation() {
      return "Conv2D";
    }

    @Override
    public String op() {
      return activation == Act.NONE
          ? "Convolution"
          : "Convolution+Activation(" + activation.mxnetName() + ")";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitConv2D(this);
    }
  }

  /**
   * {@code @MaxPool} ({@code max}) or {@code @AvgPool} ({@code avg}); an empty {@code stride} means
   * the kernel.
   *
   * @param type {@code max} or {@code avg}
   * @param kernel window size
   * @param stride window step, empty for the kernel's
   * @param pad padding on each side
   */
  record Pool(String type, List<Integer> kernel, List<Integer> stride, List<Integer> pad)
      implements LayerSpec {
    /** Copies the window attributes. */
    public Pool {
      kernel = List.copyOf(kernel);
      stride = List.copyOf(stride);
      pad = List.copyOf(pad);
    }

    @Override
    public String annotation() {
      return type.equals("max") ? "MaxPool" : "AvgPool";
    }

    @Override
    public String op() {
      return "Pooling(" + type + ")";
    }

    @Override
    public int arity() {
      return 1;
    }

    /** The stride as {@code {height, width}}: the kernel's when none was given. */
    public int[] effectiveStride() {
      return stride.isEmpty() ? pair(kernel) : pair(stride);
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitPool(this);
    }
  }

  /** {@code @GlobalAvgPool}. */
  record GlobalAvgPool() implements LayerSpec {
    @Override
    public String annotation() {
      return "GlobalAvgPool";
    }

    @Override
    public String op() {
      return "Pooling(global avg)";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitGlobalAvgPool(this);
    }
  }

  /**
   * {@code @Reshape}, in MXNet's notation with its special values.
   *
   * @param shape the target, -1 ({@code BATCH}) for the one inferred dimension
   */
  record Reshape(List<Integer> shape) implements LayerSpec {
    /** Copies the target. */
    public Reshape {
      shape = List.copyOf(shape);
    }

    /** {@code {BATCH, 1, 28, 28}}: the target as written, -1 as BATCH. */
    public String target() {
      return shape.stream()
          .map(d -> d == TShape.BATCH ? "BATCH" : d.toString())
          .collect(Collectors.joining(", ", "{", "}"));
    }

    @Override
    public String annotation() {
      return "Reshape";
    }

    @Override
    public String op() {
      return "Reshape";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitReshape(this);
    }
  }

  /**
   * {@code @Dropout}.
   *
   * @param rate the probability of dropping a value in training
   */
  record Dropout(double rate) implements LayerSpec {
    @Override
    public String annotation() {
      return "Dropout";
    }

    @Override
    public String op() {
      return "Dropout";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitDropout(this);
    }
  }

  /**
   * {@code @BatchNorm}.
   *
   * @param eps added to the variance
   * @param momentum decay of the moving averages
   * @param axis the channel axis
   */
  record BatchNorm(double eps, double momentum, int axis) implements LayerSpec {
    @Override
    public String annotation() {
      return "BatchNorm";
    }

    @Override
    public String op() {
      return "BatchNorm";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitBatchNorm(this);
    }
  }

  /**
   * {@code @LayerNorm}.
   *
   * @param axis the axis normalised over
   * @param eps added to the variance
   */
  record LayerNorm(int axis, double eps) implements LayerSpec {
    @Override
    public String annotation() {
      return "LayerNorm";
    }

    @Override
    public String op() {
      return "LayerNorm";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitLayerNorm(this);
    }
  }

  /**
   * {@code @Embedding}.
   *
   * @param inputDim rows: the number of distinct indices
   * @param outputDim columns: the size of each vector
   */
  record Embedding(int inputDim, int outputDim) implements LayerSpec {
    @Override
    public String annotation() {
      return "Embedding";
    }

    @Override
    public String op() {
      return "Embedding";
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitEmbedding(this);
    }
  }

  /**
   * {@code @Rnn}, {@code @Lstm} or {@code @Gru}: MXNet's fused {@code RNN} operator.
   *
   * @param mode MXNet's cell: {@code rnn_tanh}, {@code rnn_relu}, {@code lstm} or {@code gru}
   * @param units the hidden state's size per direction
   * @param layers stacked layers
   * @param bidirectional whether each layer also reads the sequence reversed
   * @param dropout dropout between stacked layers in training
   * @param returnSequences every step, or the last one only
   * @param stateful whether the final state is carried into the next call
   * @param activation {@code @Rnn}'s activation as written (TANH for the others)
   */
  record Recurrent(
      String mode,
      int units,
      int layers,
      boolean bidirectional,
      double dropout,
      boolean returnSequences,
      boolean stateful,
      Act activation)
      implements LayerSpec {
    @Override
    public String annotation() {
      return switch (mode) {
        case "lstm" -> "Lstm";
        case "gru" -> "Gru";
        default -> "Rnn";
      };
    }

    @Override
    public String op() {
      return "RNN(" + mode + ")";
    }

    @Override
    public int arity() {
      return 1;
    }

    /** 1 or 2. */
    public int directions() {
      return bidirectional ? 2 : 1;
    }

    /** Gates per cell: 4 for an LSTM, 3 for a GRU, 1 otherwise. */
    public int gates() {
      return switch (mode) {
        case "lstm" -> 4;
        case "gru" -> 3;
        default -> 1;
      };
    }

    /**
     * The flat parameter vector's length for {@code features} per step, MXNet's {@code
     * GetRnnParamSize}: with {@code S = gates · units · directions}, {@code (features + units + 2)
     * · S + (layers - 1) · (directions · units + units + 2) · S}.
     */
    public long parameters(int features) {
      long s = (long) gates() * units * directions();
      return (features + units + 2L) * s
          + (layers - 1L) * ((long) directions() * units + units + 2L) * s;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitRecurrent(this);
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
   * @param state a recurrent cell's state pattern; empty for a layer without state
   * @param dims the layer's int elements as written where it is used (dimension values)
   * @param params the layer's parameters, in the forward method's order
   * @param args the forward method's arguments after the input (and a cell's state), in order
   */
  record Custom(
      String layerName,
      TypeElement forwardType,
      String forwardMethod,
      List<String> input,
      List<String> output,
      List<String> state,
      Map<String, Integer> dims,
      List<CustomParam> params,
      List<ForwardArg> args)
      implements LayerSpec {
    /** Copies the collections, keeping the order of {@code dims}. */
    public Custom {
      input = List.copyOf(input);
      output = List.copyOf(output);
      state = List.copyOf(state);
      dims = Collections.unmodifiableMap(new LinkedHashMap<>(dims));
      params = List.copyOf(params);
      args = List.copyOf(args);
    }

    @Override
    public String annotation() {
      return layerName;
    }

    /**
     * Whether the layer is a recurrent cell: its forward pass is one step, unrolled over the input
     * sequence's steps.
     */
    public boolean cell() {
      return !state.isEmpty();
    }

    @Override
    public String op() {
      return cell() ? "custom cell " + layerName + ", unrolled" : "custom " + layerName;
    }

    @Override
    public int arity() {
      return 1;
    }

    @Override
    public boolean tracedAtBuild() {
      return true;
    }

    @Override
    public <R> R accept(Visitor<R> visitor) {
      return visitor.visitCustom(this);
    }
  }

  /**
   * A parameter of a custom layer.
   *
   * @param name its name in the forward method, e.g. {@code gateWeight}
   * @param role its part of the MXNet name {@code <node>_<role>}: the name in snake case, e.g.
   *     {@code gate_weight}
   * @param shape its shape pattern
   * @param zeros whether it starts at zero
   */
  record CustomParam(String name, String role, List<String> shape, boolean zeros) {
    /** Copies the pattern. */
    public CustomParam {
      shape = List.copyOf(shape);
    }
  }

  /**
   * One argument of a custom layer's forward method after the input: a parameter (by index into
   * {@link Custom#params()}) or a constant taken from the layer annotation.
   *
   * @param param index of the parameter, or -1 for a constant
   * @param literal the constant as Java source, when {@code param} is -1
   */
  record ForwardArg(int param, String literal) {}

  /** A window attribute of one or two values as {@code {height, width}}. */
  static int[] pair(List<Integer> values) {
    return values.size() == 1
        ? new int[] {values.get(0), values.get(0)}
        : new int[] {values.get(0), values.get(1)};
  }
}
