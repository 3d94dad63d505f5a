package dev.kiln.runtime.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.graph.Shape;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed and hostile {@code .params} files: each is rejected with a message naming the file and
 * the problem, before anything in proportion to the headers' claims is allocated.
 */
class HostileParamsTest {
  private static final long TWO_TO_40 = 1L << 40;
  private static final long MIB = 1 << 20;

  @TempDir Path dir;

  /** A little-endian byte builder for hand-made files. */
  static final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Bytes u64(long v) {
      out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
      return this;
    }

    Bytes i32(int v) {
      out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
      return this;
    }

    Bytes floats(int n) {
      for (int i = 0; i < n; i++) {
        i32(Float.floatToIntBits(i + 0.5f));
      }
      return this;
    }

    Bytes raw(byte[] bytes) {
      out.writeBytes(bytes);
      return this;
    }

    Bytes key(String key) {
      byte[] b = key.getBytes(StandardCharsets.UTF_8);
      return u64(b.length).raw(b);
    }

    /** An array header as MXNet writes it, up to (not including) the data. */
    Bytes header(int magic, int storage, long[] dims, int devType, int dtype) {
      i32(magic).i32(storage).i32(dims.length);
      for (long d : dims) {
        u64(d);
      }
      return i32(devType).i32(0).i32(dtype);
    }

    Bytes dense(long... dims) {
      return header(ParamsFile.V2_MAGIC, 0, dims, 1, 0);
    }

    byte[] build() {
      return out.toByteArray();
    }
  }

  static Bytes list(long count) {
    return new Bytes().u64(0x112).u64(0).u64(count);
  }

  /** A valid file: arg:w [2, 3] and aux:m [2]. */
  static byte[] valid() {
    return list(2)
        .dense(2, 3)
        .floats(6)
        .dense(2)
        .floats(2)
        .u64(2)
        .key("arg:w")
        .key("aux:m")
        .build();
  }

  private Path file(byte[] content) throws Exception {
    Path f = dir.resolve("hostile-0000.params");
    Files.write(f, content);
    return f;
  }

  /**
   * Reads a file that must be rejected; returns the message after the file name and checks that
   * reading allocated less than a mebibyte on this thread.
   */
  private String reject(byte[] content) throws Exception {
    Path f = file(content);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    CheckpointException e = assertThrows(CheckpointException.class, () -> ParamsFile.read(f));
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertTrue(allocated < MIB, "rejecting took " + allocated + " bytes: " + e.getMessage());
    assertEquals(f, e.file());
    String prefix = f + ": ";
    assertTrue(e.getMessage().startsWith(prefix), e.getMessage());
    return e.getMessage().substring(prefix.length());
  }

  @Test
  void theValidFileReads() throws Exception {
    List<NamedArray> arrays = ParamsFile.read(file(valid()));
    assertEquals(Shape.of(2, 3), arrays.get(0).shape());
    assertArrayEquals(new float[] {0.5f, 1.5f}, arrays.get(1).data(), 0f);
    assertEquals(2, MxnetFiles.load(file(valid())).size(), "MXNet reads it too");
  }

  @Test
  void theAllocationMeterSeesAValidBigRead() throws Exception {
    Path f = file(list(1).dense(1000, 1000).floats(1_000_000).u64(1).key("arg:w").build());
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long before = threads.getCurrentThreadAllocatedBytes();
    assertEquals(1_000_000, ParamsFile.read(f).get(0).data().length);
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertTrue(allocated >= 4_000_000, "a 4 MB read allocated only " + allocated + " bytes");
  }

  @Test
  void wrongListMagic() throws Exception {
    byte[] b = valid();
    b[0] = 0x13;
    assertEquals(
        "not an MXNet NDArray list: it starts with 0x0000000000000113, expected "
            + "0x0000000000000112",
        reject(b));
    byte[] djl =
        new Bytes()
            .raw("DJL@".getBytes(StandardCharsets.US_ASCII))
            .i32(0x01000000)
            .u64(0)
            .u64(0)
            .build();
    assertTrue(reject(djl).endsWith("(this is DJL's own parameter format)"));
  }

  @Test
  void nonZeroReservedField() throws Exception {
    byte[] b = valid();
    b[8] = 1;
    assertEquals("the reserved field after the list magic is 0x1, expected 0", reject(b));
  }

  @Test
  void truncatedHeaders() throws Exception {
    assertEquals(
        "truncated: the list magic needs 8 bytes at offset 0 but 0 remain", reject(new byte[0]));
    assertEquals(
        "truncated: the list header needs 16 bytes at offset 8 but 4 remain",
        reject(Arrays.copyOf(valid(), 12)));
    // Cut inside array 1's shape: its magic, storage type and ndim are there, not its dims.
    byte[] two =
        list(2).dense(8, 8).floats(64).dense(2).floats(2).u64(2).key("arg:w").key("aux:m").build();
    int array1 = 24 + (12 + 16 + 12) + 64 * 4;
    assertEquals(
        "truncated: array 1's shape, context and dtype needs 20 bytes at offset 332 "
            + "but 6 remain",
        reject(Arrays.copyOf(two, array1 + 12 + 6)));
  }

  @Test
  void truncatedData() throws Exception {
    byte[] cut = list(1).dense(1000, 1000).floats(256).u64(1).key("arg:w").build();
    assertEquals(
        "truncated: array 0 of shape [1000, 1000] needs 4,000,000 bytes of float32 "
            + "data but 1,045 remain",
        reject(cut));
  }

  @Test
  void arrayCountBiggerThanTheFile() throws Exception {
    byte[] b = list(1000).dense(2).floats(2).u64(1).key("arg:w").build();
    assertEquals(
        "truncated: claims 1,000 arrays, which take at least 24,008 bytes, but 61 " + "remain",
        reject(b));
    assertEquals(
        "claims 18446744073709551615 arrays, more than the 1,048,576 Kiln reads",
        reject(list(-1).build()));
  }

  @Test
  void dimensionOfTwoToTheFortyIsNeverAllocated() throws Exception {
    byte[] b = list(1).dense(TWO_TO_40, 4).floats(4).u64(1).key("arg:w").build();
    assertEquals(
        "truncated: array 0 of shape [1099511627776, 4] needs 17,592,186,044,416 "
            + "bytes of float32 data but 37 remain",
        reject(b));
    byte[] overflow = list(1).dense(TWO_TO_40, TWO_TO_40).floats(4).u64(1).key("arg:w").build();
    assertEquals(
        "truncated: array 0 of shape [1099511627776, 1099511627776] needs more than "
            + "2^63 bytes of float32 data but 37 remain",
        reject(overflow));
  }

  @Test
  void nonPositiveDimensions() throws Exception {
    byte[] negative = list(1).dense(3, -5).floats(4).u64(1).key("arg:w").build();
    assertEquals(
        "array 0 has shape [3, -5]: dimension 1 is -5, every dimension must be " + "positive",
        reject(negative));
    byte[] zero = list(1).dense(0).floats(1).u64(1).key("arg:w").build();
    assertEquals(
        "array 0 has shape [0]: dimension 0 is 0, every dimension must be positive", reject(zero));
  }

  @Test
  void rankOutOfRange() throws Exception {
    assertEquals(
        "array 0 has 0 dimensions, expected 1 to 32",
        reject(list(1).dense().floats(4).u64(1).key("arg:w").build()));
    byte[] thousand =
        list(1).i32(ParamsFile.V2_MAGIC).i32(0).i32(1000).floats(20).u64(1).key("arg:w").build();
    assertEquals("array 0 has 1000 dimensions, expected 1 to 32", reject(thousand));
    byte[] unknown =
        list(1).i32(ParamsFile.V2_MAGIC).i32(0).i32(-1).floats(20).u64(1).key("arg:w").build();
    assertEquals("array 0 has -1 dimensions, expected 1 to 32", reject(unknown));
  }

  @Test
  void float64IsNamed() throws Exception {
    byte[] b =
        list(1)
            .header(ParamsFile.V2_MAGIC, 0, new long[] {2}, 1, 1)
            .floats(4)
            .u64(1)
            .key("arg:w")
            .build();
    assertEquals("array 0 has dtype float64 (1), Kiln reads only float32 (0)", reject(b));
    byte[] f16 =
        list(1)
            .header(ParamsFile.V2_MAGIC, 0, new long[] {2}, 1, 2)
            .floats(1)
            .u64(1)
            .key("arg:w")
            .build();
    assertEquals("array 0 has dtype float16 (2), Kiln reads only float32 (0)", reject(f16));
  }

  @Test
  void sparseStorage() throws Exception {
    byte[] csr =
        list(1)
            .header(ParamsFile.V2_MAGIC, 2, new long[] {2, 2}, 1, 0)
            .floats(4)
            .u64(1)
            .key("arg:w")
            .build();
    assertEquals("array 0 has storage type 2 (csr), Kiln reads only dense (0) arrays", reject(csr));
    byte[] rowSparse =
        list(1)
            .header(ParamsFile.V2_MAGIC, 1, new long[] {2}, 1, 0)
            .floats(2)
            .u64(1)
            .key("arg:w")
            .build();
    assertEquals(
        "array 0 has storage type 1 (row_sparse), Kiln reads only dense (0) arrays",
        reject(rowSparse));
  }

  @Test
  void wrongArrayMagic() throws Exception {
    byte[] garbage =
        list(1).header(0x12345678, 0, new long[] {2}, 1, 0).floats(2).u64(1).key("arg:w").build();
    assertEquals(
        "array 0 at offset 24 has NDArray magic 0x12345678, expected 0xF993FAC9 (V2), "
            + "0xF993FACA (V3), 0xF993FAC8 (V1) or, as MXNet before 1.0 wrote, a rank of 1 to 32",
        reject(garbage));
    // MXNet before 1.0: the rank first; here its two dimensions run into the context.
    byte[] legacy = list(1).i32(2).i32(3).i32(4).floats(12).u64(1).key("arg:w").build();
    assertTrue(reject(legacy).startsWith("array 0 is on device"), reject(legacy));
  }

  @Test
  void arrayCountTooBigSaysHowManyTheFileHolds() throws Exception {
    // Claims 2 arrays, holds 1 and its key: where array 1 should start, the keys begin.
    byte[] b = list(2).dense(64).floats(64).u64(1).key("arg:w").build();
    assertEquals(
        "claims 2 arrays but holds 1: at offset 312, where array 1 should start, "
            + "come 1 key and the end of the file",
        reject(b));
    byte[] three =
        list(3).dense(20).floats(20).dense(20).floats(20).u64(2).key("arg:a").key("arg:b").build();
    assertEquals(
        "claims 3 arrays but holds 2: at offset 248, where array 2 should start, "
            + "come 2 keys and the end of the file",
        reject(three));
    // A file whose keys do not end it right there gets no guess: 7 is read as the rank of an
    // array of MXNet before 1.0, whose header the file is too short for.
    byte[] garbage = list(2).dense(64).floats(64).u64(7).u64(0).u64(0).build();
    assertTrue(reject(garbage).contains("array 1's shape"), reject(garbage));
  }

  @Test
  void arrayCountTooSmallSaysAnotherArrayFollows() throws Exception {
    byte[] b =
        list(1).dense(2).floats(2).dense(2).floats(2).u64(2).key("arg:a").key("arg:b").build();
    assertEquals(
        "claims 1 array but holds more: at offset 64, where the key count should be, "
            + "another array starts (NDArray magic 0xF993FAC9)",
        reject(b));
  }

  @Test
  void contexts() throws Exception {
    byte[] unknown =
        list(1)
            .header(ParamsFile.V2_MAGIC, 0, new long[] {2}, 7, 0)
            .floats(2)
            .u64(1)
            .key("arg:w")
            .build();
    assertEquals(
        "array 0 is on device (type 7, id 0), expected a cpu (1) or gpu (2) context",
        reject(unknown));
    byte[] gpu =
        list(1)
            .header(ParamsFile.V2_MAGIC, 0, new long[] {2}, 2, 0)
            .floats(2)
            .u64(1)
            .key("arg:w")
            .build();
    assertArrayEquals(
        new float[] {0.5f, 1.5f},
        ParamsFile.read(file(gpu)).get(0).data(),
        0f,
        "MXNet saves a host copy of a GPU array, so its bytes read like any other");
  }

  @Test
  void v3MagicReads() throws Exception {
    byte[] v3 =
        list(1)
            .header(ParamsFile.V3_MAGIC, 0, new long[] {2}, 1, 0)
            .floats(2)
            .u64(1)
            .key("aux:m")
            .build();
    assertEquals("aux:m", ParamsFile.read(file(v3)).get(0).key());
  }

  @Test
  void keysMustPairWithArrays() throws Exception {
    assertEquals(
        "has 0 keys for 1 array, expected one arg:/aux: key per array",
        reject(list(1).dense(2).floats(2).u64(0).build()));
    assertEquals(
        "has 3 keys for 2 arrays, expected one arg:/aux: key per array",
        reject(
            list(2)
                .dense(2)
                .floats(2)
                .dense(1)
                .floats(1)
                .u64(3)
                .key("arg:a")
                .key("arg:b")
                .key("arg:c")
                .build()));
    assertEquals(
        "truncated: the key count needs 8 bytes at offset 64 but 4 remain",
        reject(list(1).dense(2).floats(2).i32(1).build()));
  }

  @Test
  void malformedKeys() throws Exception {
    Bytes one = list(1).dense(1).floats(1);
    assertEquals(
        "key 0 'weight' must start with arg: or aux:",
        reject(list(1).dense(1).floats(1).u64(1).key("weight").build()));
    assertEquals(
        "key 0 'aux:' has no name after its prefix",
        reject(list(1).dense(1).floats(1).u64(1).key("aux:").build()));
    assertEquals(
        "key 0 is 5000 bytes long, more than 1,024",
        reject(one.u64(1).u64(5000).raw(new byte[5000]).build()));
    assertEquals(
        "key 0 is 9223372036854775808 bytes long, more than 1,024",
        reject(list(1).dense(1).floats(1).u64(1).u64(Long.MIN_VALUE).build()));
    assertEquals(
        "truncated: key 0 needs 10 bytes at offset 76 but 5 remain",
        reject(
            list(1)
                .dense(1)
                .floats(1)
                .u64(1)
                .u64(10)
                .raw("arg:w".getBytes(StandardCharsets.US_ASCII))
                .build()));
    byte[] notUtf8 =
        list(1)
            .dense(1)
            .floats(1)
            .u64(1)
            .u64(6)
            .raw(new byte[] {'a', 'r', 'g', ':', (byte) 0xC3, (byte) 0x28})
            .build();
    Path f = file(notUtf8);
    CheckpointException e = assertThrows(CheckpointException.class, () -> ParamsFile.read(f));
    assertEquals(
        f
            + ": key 0 is not valid UTF-8: its 6 bytes are 61 72 67 3a c3 28, expected "
            + "the UTF-8 bytes of arg:<name> or aux:<name>",
        e.getMessage());
    assertInstanceOf(CharacterCodingException.class, e.getCause());
    assertEquals(
        "key 1 'arg:a' repeats key 0",
        reject(
            list(2)
                .dense(1)
                .floats(1)
                .dense(1)
                .floats(1)
                .u64(2)
                .key("arg:a")
                .key("arg:a")
                .build()));
  }

  @Test
  void controlCharacterInAKeyIsNamed() throws Exception {
    assertEquals(
        "key 0 'arg:a?b' holds control character U+0007 at index 5 (shown as ?), "
            + "expected printable characters only",
        reject(list(1).dense(1).floats(1).u64(1).key("arg:a\u0007b").build()));
  }

  @Test
  void tooLongKeyOnWriteSaysItsLength() {
    String key = "arg:" + "w".repeat(2000);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ParamsFile.write(
                    dir.resolve("long.params"),
                    List.of(new NamedArray(key, Shape.of(1), new float[1]))));
    assertEquals(
        "key '"
            + key.substring(0, 40)
            + "...' is 2004 bytes long in UTF-8, more than "
            + "the 1024 a key may have",
        e.getMessage());
  }

  @Test
  void trailingGarbage() throws Exception {
    byte[] b = new Bytes().raw(valid()).raw(new byte[] {1, 2, 3}).build();
    assertEquals(
        "has 3 bytes after the last key (at offset 162), expected the file to end " + "there",
        reject(b));
  }
}
