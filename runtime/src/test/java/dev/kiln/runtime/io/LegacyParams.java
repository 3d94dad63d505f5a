package dev.kiln.runtime.io;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes a {@code .params} file as MXNet before 1.0 wrote one, from the layout MXNet 1.9.1 reads
 * ({@code src/ndarray/ndarray.cc}: {@code NDArray::Load} of the list, {@code LegacyLoad} and {@code
 * LegacyTShapeLoad} per array): MXNet 1.9.1 has no writer for it any more, so tests write it by
 * hand and check that MXNet's own {@code MXNDArrayLoad} reads it.
 */
public final class LegacyParams {
  /** How an array's header starts. */
  public enum Layout {
    /** MXNet 0.x: the rank ({@code uint32}) first, then {@code uint32} dimensions. */
    RANK_FIRST,
    /** The V1 magic {@code 0xF993FAC8}, then an {@code int32} rank and {@code int64} dimensions. */
    V1
  }

  private LegacyParams() {}

  /**
   * Writes {@code arrays} to {@code file}: the list magic {@code 0x112} and a reserved 0 ({@code
   * uint64} each), the array count ({@code uint64}); per array its shape as {@code layout} writes
   * it, the context (cpu: {@code int32} 1, device {@code int32} 0), the dtype ({@code int32} 0,
   * float32) and the values, with no storage type; then the key count and each key's length ({@code
   * uint64}) and UTF-8 bytes.
   */
  public static void write(Path file, List<NamedArray> arrays, Layout layout) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    u64(out, ParamsFile.LIST_MAGIC);
    u64(out, 0);
    u64(out, arrays.size());
    for (NamedArray a : arrays) {
      int[] dims = a.shape().dims();
      if (layout == Layout.V1) {
        i32(out, 0xF993FAC8);
        i32(out, dims.length);
        for (int d : dims) {
          u64(out, d);
        }
      } else {
        i32(out, dims.length);
        for (int d : dims) {
          i32(out, d);
        }
      }
      i32(out, 1);
      i32(out, 0);
      i32(out, 0);
      for (float v : a.data()) {
        i32(out, Float.floatToRawIntBits(v));
      }
    }
    u64(out, arrays.size());
    for (NamedArray a : arrays) {
      byte[] key = a.key().getBytes(StandardCharsets.UTF_8);
      u64(out, key.length);
      out.writeBytes(key);
    }
    Files.write(file, out.toByteArray());
  }

  private static void u64(ByteArrayOutputStream out, long v) {
    out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
  }

  private static void i32(ByteArrayOutputStream out, int v) {
    out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
  }
}
