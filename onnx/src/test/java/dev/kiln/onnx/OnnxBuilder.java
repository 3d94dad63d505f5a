package dev.kiln.onnx;

import com.google.protobuf.ByteString;
import dev.kiln.onnx.proto.Onnx.AttributeProto;
import dev.kiln.onnx.proto.Onnx.GraphProto;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.onnx.proto.Onnx.NodeProto;
import dev.kiln.onnx.proto.Onnx.OperatorSetIdProto;
import dev.kiln.onnx.proto.Onnx.TensorProto;
import dev.kiln.onnx.proto.Onnx.TensorShapeProto;
import dev.kiln.onnx.proto.Onnx.TypeProto;
import dev.kiln.onnx.proto.Onnx.ValueInfoProto;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * Writes small ONNX models for tests, as an exporter would: typed inputs and outputs (a {@code
 * String} dimension is symbolic), initializers in {@code raw_data} or in typed fields, nodes with
 * attributes, one operator set.
 */
public final class OnnxBuilder {
  private final GraphProto.Builder graph = GraphProto.newBuilder().setName("test");
  private final int opset;
  private int nodes;

  /** A model of ONNX's operator set {@code opset}. */
  public OnnxBuilder(int opset) {
    this.opset = opset;
  }

  /** A float input {@code name} of dimensions {@code dims} (Integer sizes, String symbols). */
  public OnnxBuilder input(String name, Object... dims) {
    graph.addInput(value(name, TensorProto.DataType.FLOAT_VALUE, dims));
    return this;
  }

  /** An input of element type {@code type} (a {@code TensorProto.DataType} number). */
  public OnnxBuilder typedInput(String name, int type, Object... dims) {
    graph.addInput(value(name, type, dims));
    return this;
  }

  /** A float output {@code name}. */
  public OnnxBuilder output(String name, Object... dims) {
    graph.addOutput(value(name, TensorProto.DataType.FLOAT_VALUE, dims));
    return this;
  }

  private static ValueInfoProto value(String name, int type, Object... dims) {
    TensorShapeProto.Builder shape = TensorShapeProto.newBuilder();
    for (Object d : dims) {
      shape.addDim(
          d instanceof String s
              ? TensorShapeProto.Dimension.newBuilder().setDimParam(s)
              : TensorShapeProto.Dimension.newBuilder().setDimValue(((Number) d).longValue()));
    }
    return ValueInfoProto.newBuilder()
        .setName(name)
        .setType(
            TypeProto.newBuilder()
                .setTensorType(TypeProto.Tensor.newBuilder().setElemType(type).setShape(shape)))
        .build();
  }

  /** A float initializer {@code name} of {@code dims}, its values in {@code raw_data}. */
  public OnnxBuilder initializer(String name, float[] values, long... dims) {
    ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (float v : values) {
      b.putFloat(v);
    }
    graph.addInitializer(
        TensorProto.newBuilder()
            .setName(name)
            .setDataType(TensorProto.DataType.FLOAT_VALUE)
            .addAllDims(toList(dims))
            .setRawData(ByteString.copyFrom(b.array())));
    return this;
  }

  /** A float initializer of {@code dims} with random values from {@code rng} (scale {@code s}). */
  public OnnxBuilder random(String name, Random rng, double s, long... dims) {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    float[] v = new float[(int) n];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (rng.nextGaussian() * s);
    }
    return initializer(name, v, dims);
  }

  /** A float initializer in the typed field {@code float_data}. */
  public OnnxBuilder floatData(String name, float[] values, long... dims) {
    TensorProto.Builder t =
        TensorProto.newBuilder()
            .setName(name)
            .setDataType(TensorProto.DataType.FLOAT_VALUE)
            .addAllDims(toList(dims));
    for (float v : values) {
      t.addFloatData(v);
    }
    graph.addInitializer(t);
    return this;
  }

  /** An int64 initializer (a shape, axes, indices), in {@code int64_data}. */
  public OnnxBuilder int64(String name, long[] values, long... dims) {
    TensorProto.Builder t =
        TensorProto.newBuilder()
            .setName(name)
            .setDataType(TensorProto.DataType.INT64_VALUE)
            .addAllDims(toList(dims));
    for (long v : values) {
      t.addInt64Data(v);
    }
    graph.addInitializer(t);
    return this;
  }

  /** A node {@code op} over {@code inputs} writing {@code outputs}, with {@code attributes}. */
  public OnnxBuilder node(
      String op, List<String> inputs, List<String> outputs, AttributeProto... attributes) {
    graph.addNode(
        NodeProto.newBuilder()
            .setOpType(op)
            .setName(op.toLowerCase(java.util.Locale.ROOT) + "_" + nodes++)
            .addAllInput(inputs)
            .addAllOutput(outputs)
            .addAllAttribute(List.of(attributes)));
    return this;
  }

  /** The model. */
  public ModelProto build() {
    return ModelProto.newBuilder()
        .setIrVersion(opset >= 21 ? 10 : 7)
        .setProducerName("kiln-test")
        .addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("").setVersion(opset))
        .setGraph(graph)
        .build();
  }

  /** The model written to {@code file}. */
  public Path write(Path file) throws IOException {
    Files.write(file, build().toByteArray());
    return file;
  }

  /** An int attribute. */
  public static AttributeProto i(String name, long value) {
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.INT)
        .setI(value)
        .build();
  }

  /** A float attribute. */
  public static AttributeProto f(String name, float value) {
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.FLOAT)
        .setF(value)
        .build();
  }

  /** A string attribute. */
  public static AttributeProto s(String name, String value) {
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.STRING)
        .setS(ByteString.copyFromUtf8(value))
        .build();
  }

  /** An ints attribute. */
  public static AttributeProto ints(String name, long... values) {
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.INTS)
        .addAllInts(toList(values))
        .build();
  }

  /** A strings attribute. */
  public static AttributeProto strings(String name, String... values) {
    AttributeProto.Builder a =
        AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.STRINGS);
    for (String v : values) {
      a.addStrings(ByteString.copyFromUtf8(v));
    }
    return a.build();
  }

  /** A floats attribute. */
  public static AttributeProto floats(String name, float... values) {
    AttributeProto.Builder a =
        AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.FLOATS);
    for (float v : values) {
      a.addFloats(v);
    }
    return a.build();
  }

  /** A tensor attribute (a {@code Constant}'s value) of int64 values. */
  public static AttributeProto int64Tensor(String name, long[] values, long... dims) {
    TensorProto.Builder t =
        TensorProto.newBuilder()
            .setDataType(TensorProto.DataType.INT64_VALUE)
            .addAllDims(toList(dims));
    for (long v : values) {
      t.addInt64Data(v);
    }
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.TENSOR)
        .setT(t)
        .build();
  }

  /** A tensor attribute of float values. */
  public static AttributeProto floatTensor(String name, float[] values, long... dims) {
    TensorProto.Builder t =
        TensorProto.newBuilder()
            .setDataType(TensorProto.DataType.FLOAT_VALUE)
            .addAllDims(toList(dims));
    for (float v : values) {
      t.addFloatData(v);
    }
    return AttributeProto.newBuilder()
        .setName(name)
        .setType(AttributeProto.AttributeType.TENSOR)
        .setT(t)
        .build();
  }

  private static List<Long> toList(long[] values) {
    return java.util.Arrays.stream(values).boxed().toList();
  }
}
