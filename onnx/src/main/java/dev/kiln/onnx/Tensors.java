package dev.kiln.onnx;

import com.google.protobuf.ByteString;
import dev.kiln.onnx.proto.Onnx.StringStringEntryProto;
import dev.kiln.onnx.proto.Onnx.TensorProto;
import dev.kiln.onnx.proto.Onnx.TensorProto.DataType;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The values of an ONNX tensor, from whichever field holds them: the typed field of its element
 * type, {@code raw_data} (little-endian), or a file beside the model ({@code external_data}). Every
 * numeric element type is read, as {@code float}s (weights) or {@code long}s (shapes and indices);
 * a count of values other than the dimensions say is refused, naming the tensor.
 */
public final class Tensors {
  private Tensors() {}

  /** The dimensions of {@code t}. */
  public static long[] dims(TensorProto t) {
    return t.getDimsList().stream().mapToLong(Long::longValue).toArray();
  }

  /**
   * The number of values {@code t}'s dimensions say it holds.
   *
   * @throws OnnxFormatException for a negative dimension or more than an array can hold
   */
  public static int count(TensorProto t) {
    long n = 1;
    for (long d : t.getDimsList()) {
      if (d < 0) {
        throw new OnnxFormatException(
            "tensor " + name(t) + " has a negative dimension: " + t.getDimsList());
      }
      n *= d;
      if (n > Integer.MAX_VALUE - 8) {
        throw new OnnxFormatException(
            "tensor "
                + name(t)
                + " of dims "
                + t.getDimsList()
                + " holds more values than Kiln "
                + "can keep in one array");
      }
    }
    return (int) n;
  }

  /**
   * The values of {@code t} as floats, row-major; {@code dir} is where the model file is, for
   * external data (null when there is none).
   *
   * @throws OnnxFormatException if the values do not fit the tensor's type and dimensions
   */
  public static float[] floats(TensorProto t, Path dir) {
    double[] v = doubles(t, dir);
    float[] f = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      f[i] = (float) v[i];
    }
    return f;
  }

  /**
   * The values of {@code t} as longs (each value of a floating point tensor truncated toward zero).
   *
   * @throws OnnxFormatException if the values do not fit the tensor's type and dimensions
   */
  public static long[] longs(TensorProto t, Path dir) {
    DataType type = type(t);
    if (type == DataType.INT64 && t.getDataLocation() != TensorProto.DataLocation.EXTERNAL) {
      if (t.getInt64DataCount() > 0) {
        return checked(t, t.getInt64DataList().stream().mapToLong(Long::longValue).toArray());
      }
      ByteBuffer b = buffer(t, dir, 8);
      long[] out = new long[b.remaining() / 8];
      b.asLongBuffer().get(out);
      return checked(t, out);
    }
    double[] d = doubles(t, dir);
    long[] out = new long[d.length];
    for (int i = 0; i < d.length; i++) {
      out[i] = (long) d[i];
    }
    return out;
  }

  /** The values of {@code t} as doubles, whatever its numeric type. */
  private static double[] doubles(TensorProto t, Path dir) {
    DataType type = type(t);
    boolean external = t.getDataLocation() == TensorProto.DataLocation.EXTERNAL;
    double[] out;
    switch (type) {
      case FLOAT -> {
        if (!external && t.getFloatDataCount() > 0) {
          out = t.getFloatDataList().stream().mapToDouble(Float::doubleValue).toArray();
        } else {
          ByteBuffer b = buffer(t, dir, 4);
          out = new double[b.remaining() / 4];
          for (int i = 0; i < out.length; i++) {
            out[i] = b.getFloat();
          }
        }
      }
      case DOUBLE -> {
        if (!external && t.getDoubleDataCount() > 0) {
          out = t.getDoubleDataList().stream().mapToDouble(Double::doubleValue).toArray();
        } else {
          ByteBuffer b = buffer(t, dir, 8);
          out = new double[b.remaining() / 8];
          b.asDoubleBuffer().get(out);
        }
      }
      case INT64 -> out = Arrays.stream(longs(t, dir)).asDoubleStream().toArray();
      case INT32, INT16, INT8, UINT8, UINT16, BOOL, FLOAT16, BFLOAT16 -> {
        int size =
            switch (type) {
              case INT32 -> 4;
              case INT16, UINT16, FLOAT16, BFLOAT16 -> 2;
              default -> 1;
            };
        long[] bits;
        if (!external && t.getInt32DataCount() > 0) {
          bits = t.getInt32DataList().stream().mapToLong(Integer::longValue).toArray();
        } else {
          ByteBuffer b = buffer(t, dir, size);
          bits = new long[b.remaining() / size];
          for (int i = 0; i < bits.length; i++) {
            bits[i] =
                switch (size) {
                  case 4 -> b.getInt();
                  case 2 -> b.getShort() & 0xFFFFL;
                  default -> b.get() & 0xFFL;
                };
          }
        }
        out = new double[bits.length];
        for (int i = 0; i < bits.length; i++) {
          out[i] = number(type, bits[i]);
        }
      }
      case UINT32, UINT64 -> {
        if (!external && t.getUint64DataCount() > 0) {
          out = t.getUint64DataList().stream().mapToDouble(Long::doubleValue).toArray();
        } else {
          int size = type == DataType.UINT32 ? 4 : 8;
          ByteBuffer b = buffer(t, dir, size);
          out = new double[b.remaining() / size];
          for (int i = 0; i < out.length; i++) {
            out[i] = size == 4 ? b.getInt() & 0xFFFFFFFFL : b.getLong();
          }
        }
      }
      default ->
          throw new OnnxFormatException(
              "tensor " + name(t) + " holds " + type + " values, which are not numbers Kiln reads");
    }
    checkCount(t, out.length);
    return out;
  }

  /** One value of a narrow integer or half-precision type, from its bits. */
  private static double number(DataType type, long bits) {
    return switch (type) {
      case INT16 -> (short) bits;
      case INT8 -> (byte) bits;
      case BOOL -> bits != 0 ? 1 : 0;
      case FLOAT16 -> half((int) bits & 0xFFFF);
      case BFLOAT16 -> Float.intBitsToFloat((int) (bits & 0xFFFF) << 16);
      default -> bits;
    };
  }

  /** IEEE 754 half precision: 1 sign bit, 5 exponent bits, 10 fraction bits. */
  static float half(int bits) {
    int sign = (bits >>> 15) == 0 ? 1 : -1;
    int exponent = (bits >>> 10) & 0x1F;
    int fraction = bits & 0x3FF;
    if (exponent == 0) {
      return sign * fraction * 0x1p-24f;
    }
    if (exponent == 31) {
      return fraction == 0 ? sign * Float.POSITIVE_INFINITY : Float.NaN;
    }
    return sign * (1 + fraction / 1024f) * (float) Math.pow(2, exponent - 15);
  }

  private static DataType type(TensorProto t) {
    DataType type = DataType.forNumber(t.getDataType());
    if (type == null || type == DataType.UNDEFINED) {
      throw new OnnxFormatException(
          "tensor " + name(t) + " has no known element type (" + t.getDataType() + ")");
    }
    return type;
  }

  /** The tensor's bytes, little-endian, checked to be whole elements of {@code size} bytes. */
  private static ByteBuffer buffer(TensorProto t, Path dir, int size) {
    ByteString raw;
    if (t.getDataLocation() == TensorProto.DataLocation.EXTERNAL) {
      raw = external(t, dir);
    } else {
      raw = t.getRawData();
    }
    if (raw.size() % size != 0) {
      throw new OnnxFormatException(
          "tensor "
              + name(t)
              + " has "
              + raw.size()
              + " bytes of data, not whole values of "
              + size
              + " bytes");
    }
    return raw.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * The bytes of an external tensor: {@code location}, from {@code offset}, {@code length} long.
   */
  private static ByteString external(TensorProto t, Path dir) {
    String location = null;
    long offset = 0;
    long length = -1;
    for (StringStringEntryProto e : t.getExternalDataList()) {
      switch (e.getKey()) {
        case "location" -> location = e.getValue();
        case "offset" -> offset = number(t, e);
        case "length" -> length = number(t, e);
        default -> {
          // checksum and others: not needed to read the values
        }
      }
    }
    if (location == null || dir == null) {
      throw new OnnxFormatException(
          "tensor "
              + name(t)
              + " is stored outside the model"
              + (location == null
                  ? " but names no location"
                  : " and the model's folder is unknown"));
    }
    Path file = dir.resolve(location).normalize();
    if (!file.startsWith(dir.normalize())) {
      throw new OnnxFormatException(
          "tensor " + name(t) + " is stored at " + location + ", outside the model's folder");
    }
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long n = length >= 0 ? length : f.length() - offset;
      if (offset < 0 || n < 0 || offset + n > f.length() || n > Integer.MAX_VALUE - 8) {
        throw new OnnxFormatException(
            "tensor "
                + name(t)
                + " is stored at bytes "
                + offset
                + " to "
                + (offset + n)
                + " of "
                + location
                + ", which has "
                + f.length());
      }
      byte[] bytes = new byte[(int) n];
      f.seek(offset);
      f.readFully(bytes);
      return ByteString.copyFrom(bytes);
    } catch (IOException e) {
      throw new OnnxFormatException(
          "tensor " + name(t) + " is stored in " + file + ", which cannot be read: " + e, e);
    }
  }

  private static long number(TensorProto t, StringStringEntryProto e) {
    try {
      return Long.parseLong(e.getValue().trim());
    } catch (NumberFormatException x) {
      throw new OnnxFormatException(
          "tensor " + name(t) + "'s external " + e.getKey() + " is not a number: " + e.getValue(),
          x);
    }
  }

  private static long[] checked(TensorProto t, long[] values) {
    checkCount(t, values.length);
    return values;
  }

  private static void checkCount(TensorProto t, int n) {
    int expected = count(t);
    if (n != expected) {
      throw new OnnxFormatException(
          "tensor "
              + name(t)
              + " holds "
              + n
              + " values, but its dims "
              + t.getDimsList()
              + " say "
              + expected);
    }
  }

  private static String name(TensorProto t) {
    return t.getName().isEmpty() ? "(unnamed)" : t.getName();
  }
}
