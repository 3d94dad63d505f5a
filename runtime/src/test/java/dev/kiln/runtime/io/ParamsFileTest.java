package dev.kiln.runtime.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.MxException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kiln's {@code .params} writer and reader against MXNet 1.9.1's own. */
class ParamsFileTest {
  @TempDir Path dir;

  /** Arrays of every rank up to 5, an aux state, odd sizes and a non-ASCII key. */
  static List<NamedArray> sample() {
    return List.of(
        array("arg:hidden_weight", 3, 5),
        array("arg:hidden_bias", 3),
        array("aux:bn_moving_mean", 7),
        array("arg:conv_weight", 2, 3, 2, 2),
        array("arg:rank5", 1, 2, 1, 3, 2),
        array("arg:gewicht_\u00fc\u00df_\u5c42", 1));
  }

  static NamedArray array(String key, int... dims) {
    Shape shape = Shape.of(dims);
    float[] data = new float[(int) shape.size()];
    SplittableRandom rng = new SplittableRandom(key.hashCode());
    for (int i = 0; i < data.length; i++) {
      data[i] = (float) rng.nextGaussian();
    }
    data[0] = -0.0f;
    if (data.length > 2) {
      data[1] = Float.MIN_VALUE;
      data[2] = Float.MAX_VALUE;
    }
    return new NamedArray(key, shape, data);
  }

  static void assertSameArrays(List<NamedArray> expected, List<NamedArray> actual) {
    assertEquals(expected.size(), actual.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i).key(), actual.get(i).key());
      assertEquals(expected.get(i).shape(), actual.get(i).shape());
      assertArrayEquals(expected.get(i).data(), actual.get(i).data(), 0f, expected.get(i).key());
    }
  }

  @Test
  void roundTripKeepsKeysShapesAndExactBits() throws Exception {
    Path file = dir.resolve("rt-0000.params");
    ParamsFile.write(file, sample());
    List<NamedArray> read = ParamsFile.read(file);
    assertSameArrays(sample(), read);
    assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(read.get(0).data()[0]));
    assertEquals("bn_moving_mean", read.get(2).name());
    assertTrue(read.get(2).isAux());
    assertFalse(read.get(0).isAux());
  }

  @Test
  void emptyListRoundTrips() throws Exception {
    Path file = dir.resolve("empty.params");
    ParamsFile.write(file, List.of());
    assertEquals(32, Files.size(file));
    assertEquals(List.of(), ParamsFile.read(file));
    assertEquals(List.of(), MxnetFiles.load(file));
  }

  @Test
  void bytesEqualMxnetSaveWithNumpyShapeOff() throws Exception {
    Path kiln = dir.resolve("kiln.params");
    Path mxnet = dir.resolve("mxnet.params");
    ParamsFile.write(kiln, sample());
    MxnetFiles.withNumpyShapeOff(
        () -> {
          MxnetFiles.save(mxnet, sample());
          return null;
        });
    assertArrayEquals(Files.readAllBytes(mxnet), Files.readAllBytes(kiln));
    assertEquals(2, MxnetFiles.numpyShapeMode(), "the NumPy mode is restored to global on");
  }

  @Test
  void withNumpyShapeOnMxnetWritesV3MagicAndOtherwiseTheSameBytes() throws Exception {
    assertEquals(2, MxnetFiles.numpyShapeMode(), "Kiln runs MXNet with NumPy shapes on");
    Path kiln = dir.resolve("kiln.params");
    Path mxnet = dir.resolve("mxnet-np.params");
    ParamsFile.write(kiln, sample());
    MxnetFiles.save(mxnet, sample());
    byte[] k = Files.readAllBytes(kiln);
    byte[] m = Files.readAllBytes(mxnet);
    assertEquals(k.length, m.length);
    ByteBuffer kb = ByteBuffer.wrap(k).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer mb = ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
    int offset = 24;
    for (NamedArray a : sample()) {
      assertEquals(ParamsFile.V2_MAGIC, kb.getInt(offset));
      assertEquals(ParamsFile.V3_MAGIC, mb.getInt(offset));
      mb.putInt(offset, ParamsFile.V2_MAGIC);
      offset += 4 + 4 + 4 + 8 * a.shape().rank() + 8 + 4 + 4 * a.data().length;
    }
    assertArrayEquals(k, m, "apart from the magic");
    assertSameArrays(sample(), ParamsFile.read(mxnet));
  }

  @Test
  void mxnetLoadsKilnFilesWithNumpyShapeOnAndOff() throws Exception {
    Path kiln = dir.resolve("kiln.params");
    ParamsFile.write(kiln, sample());
    assertSameArrays(sample(), MxnetFiles.load(kiln));
    assertSameArrays(sample(), MxnetFiles.withNumpyShapeOff(() -> MxnetFiles.load(kiln)));
  }

  @Test
  void mxnetRefusesItsOwnV3FilesWithNumpyShapeOffWhichIsWhyKilnWritesV2() throws Exception {
    Path v3 = dir.resolve("mxnet-np.params");
    MxnetFiles.save(v3, sample());
    MxException e =
        assertThrows(
            MxException.class, () -> MxnetFiles.withNumpyShapeOff(() -> MxnetFiles.load(v3)));
    assertTrue(e.getMessage().contains("saved in np shape semantics"), e.getMessage());
  }

  @Test
  void withThreadLocalNumpyShapeMxnetRefusesV2AndReadsV3() throws Exception {
    // The one reader V2 does not serve: MXNet with NumPy shapes on for one thread only (Python
    // under npx.set_np()). It takes V3, which is what it writes itself.
    Path kiln = dir.resolve("kiln.params");
    Path v3 = dir.resolve("mxnet-np.params");
    ParamsFile.write(kiln, sample());
    MxnetFiles.save(v3, sample());
    MxException e =
        assertThrows(
            MxException.class,
            () -> MxnetFiles.withThreadLocalNumpyShape(() -> MxnetFiles.load(kiln)));
    assertTrue(e.getMessage().contains("was not saved in np shape semantics"), e.getMessage());
    assertSameArrays(sample(), MxnetFiles.withThreadLocalNumpyShape(() -> MxnetFiles.load(v3)));
    assertEquals(2, MxnetFiles.numpyShapeMode());
  }

  @Test
  void writerRejectsMalformedInputBeforeTouchingTheFile() throws Exception {
    Path file = dir.resolve("w.params");
    Files.writeString(file, "old");
    IllegalArgumentException noPrefix =
        assertThrows(
            IllegalArgumentException.class,
            () -> new NamedArray("weight", Shape.of(1), new float[1]));
    assertEquals("key 'weight' must start with arg: or aux:", noPrefix.getMessage());
    IllegalArgumentException count =
        assertThrows(
            IllegalArgumentException.class,
            () -> new NamedArray("arg:w", Shape.of(2, 3), new float[5]));
    assertEquals("array 'arg:w' of shape [2, 3] takes 6 values, got 5", count.getMessage());
    IllegalArgumentException batch =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ParamsFile.write(
                    file, List.of("arg:w"), List.of(Shape.of(-1, 3)), i -> new float[3]));
    assertEquals(
        "array 'arg:w' has shape [BATCH, 3], expected 1 to 32 known dimensions",
        batch.getMessage());
    IllegalArgumentException twice =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ParamsFile.write(
                    file,
                    List.of("arg:w", "arg:w"),
                    List.of(Shape.of(1), Shape.of(1)),
                    i -> new float[1]));
    assertEquals("key 'arg:w' is given twice, for arrays 0 and 1", twice.getMessage());
    assertEquals("old", Files.readString(file));
  }

  @Test
  void largeArrayCrossesTheBufferBoundaries() throws Exception {
    NamedArray big = array("arg:big", 301, 1001);
    NamedArray small = array("arg:small", 3);
    Path file = dir.resolve("big.params");
    List<NamedArray> arrays = List.of(small, big, array("aux:after", 5));
    ParamsFile.write(file, arrays);
    assertSameArrays(arrays, ParamsFile.read(file));
    assertSameArrays(arrays, MxnetFiles.load(file));
  }
}
