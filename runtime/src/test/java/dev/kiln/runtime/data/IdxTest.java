package dev.kiln.runtime.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdxTest {
  @TempDir Path dir;

  private Path write(String name, byte[] content, boolean gzip) {
    return IdxFiles.write(dir.resolve(name), content, gzip);
  }

  private static void assertMessageContains(Exception e, String... parts) {
    for (String part : parts) {
      assertTrue(
          e.getMessage().contains(part),
          () -> "message \"" + e.getMessage() + "\" should contain \"" + part + "\"");
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void readsImages(boolean gzip) throws Exception {
    Path file = write("images", IdxFiles.images(3, 4, 5), gzip);

    Idx.Images images = Idx.readImages(file);

    assertEquals(gzip, Idx.isGzip(file));
    assertEquals(3, images.count());
    assertEquals(4, images.rows());
    assertEquals(5, images.cols());
    assertEquals(20, images.imageSize());
    assertArrayEquals(IdxFiles.pattern(60), images.pixels());
  }

  @Test
  void scalesPixelsToTheUnitInterval() {
    Idx.Images images = new Idx.Images(1, 2, 2, new byte[] {0, 51, (byte) 128, (byte) 255});

    assertArrayEquals(new float[] {0f, 0.2f, 128 / 255f, 1f}, images.scaledPixels());
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void readsLabelsAsUnsigned(boolean gzip) throws Exception {
    Path file = write("labels", IdxFiles.labels(0, 9, 255, 128), gzip);

    assertArrayEquals(new int[] {0, 9, 255, 128}, Idx.readLabels(file));
  }

  @Test
  void detectsGzipByContentNotName() throws Exception {
    Path gzipWithoutSuffix = write("labels", IdxFiles.labels(1, 2), true);
    Path plainWithSuffix = write("labels.gz", IdxFiles.labels(3, 4), false);

    assertArrayEquals(new int[] {1, 2}, Idx.readLabels(gzipWithoutSuffix));
    assertArrayEquals(new int[] {3, 4}, Idx.readLabels(plainWithSuffix));
    assertFalse(Idx.isGzip(plainWithSuffix));
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void rejectsBadMagic(boolean gzip) {
    Path file = write("train-images-idx3-ubyte", IdxFiles.labels(1, 2, 3), gzip);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertMessageContains(
        e, file.toString(), "expected magic 0x00000803 (unsigned-byte images), found 0x00000801");
  }

  @Test
  void rejectsImagesWhereLabelsAreExpected() {
    Path file = write("labels", IdxFiles.images(1, 2, 2), false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readLabels(file));

    assertMessageContains(e, "expected magic 0x00000801 (unsigned-byte labels), found 0x00000803");
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void rejectsTruncatedPayload(boolean gzip) {
    Path file = write("images", IdxFiles.truncate(IdxFiles.images(3, 4, 5), 10), gzip);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertMessageContains(
        e,
        file.toString(),
        "header says 3 images of 4x5 (60 bytes) but the ",
        "file holds 50 bytes after the 16-byte header (truncated)");
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void rejectsTrailingBytes(boolean gzip) {
    Path file = write("labels", IdxFiles.append(IdxFiles.labels(1, 2, 3), 4), gzip);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readLabels(file));

    assertMessageContains(
        e,
        file.toString(),
        "header says 3 labels (3 bytes) but the ",
        "file holds 7 bytes after the 8-byte header (4 trailing)");
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void rejectsZeroDimension(boolean gzip) {
    byte[] content = IdxFiles.idx(Idx.IMAGES_MAGIC, new int[] {3, 0, 5}, new byte[0]);
    Path file = write("images", content, gzip);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertMessageContains(e, file.toString(), "expected rows > 0 in the header, found 0");
  }

  @Test
  void rejectsNegativeDimension() {
    byte[] content = IdxFiles.idx(Idx.LABELS_MAGIC, new int[] {-1}, new byte[0]);
    Path file = write("labels", content, false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readLabels(file));

    assertMessageContains(e, "expected label count > 0 in the header, found -1");
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void rejectsHugeHeaderBeforeAllocating(boolean gzip) {
    int[] dims = {Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE};
    Path file = write("images", IdxFiles.idx(Idx.IMAGES_MAGIC, dims, new byte[10]), gzip);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertMessageContains(e, file.toString(), "more than the limit of 2147483639 bytes");
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void rejectsLargeClaimOnSmallFile(boolean gzip) {
    byte[] content = IdxFiles.idx(Idx.IMAGES_MAGIC, new int[] {60000, 28, 28}, new byte[1000]);
    Path file = write("train-images-idx3-ubyte", content, gzip);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertMessageContains(
        e, "header says 60000 images of 28x28 (47040000 bytes) but the ", "file holds 1000 bytes");
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void rejectsShortHeader(boolean gzip) {
    Path file = write("images", IdxFiles.truncate(IdxFiles.images(1, 1, 1), 7), gzip);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertMessageContains(e, file.toString(), "header truncated: expected 16 bytes, found 10");
  }

  @Test
  void rejectsEmptyFile() {
    Path file = write("images", new byte[0], false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertMessageContains(e, "too short for an IDX file", "found 0 bytes");
  }

  @Test
  void rejectsCutGzipStreamSayingWhere() {
    byte[] compressed = IdxFiles.gzip(IdxFiles.images(10, 28, 28));
    int cut = compressed.length / 2;
    Path file = write("images.gz", IdxFiles.truncate(compressed, compressed.length - cut), false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertMessageContains(
        e,
        file
            + ": truncated gzip data: the file ends at offset "
            + cut
            + " inside the compressed data of gzip member 1 (",
        "bytes decompressed so far), "
            + "expected more compressed data and then an 8-byte trailer");
  }

  @Test
  void rejectsGzipCutInsideItsTrailerNamingTheBytesFound() {
    // GZIPInputStream reports this one as an EOFException without a message: "(null)".
    byte[] compressed = IdxFiles.gzip(IdxFiles.labels(1, 2, 3));
    Path file = write("labels.gz", IdxFiles.truncate(compressed, 3), false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readLabels(file));

    assertEquals(
        file
            + ": truncated gzip data: the trailer of member 1 at offset "
            + (compressed.length - 8)
            + " has 5 of its 8 bytes (CRC-32 and length), the file ends "
            + "there",
        e.getMessage());
    assertFalse(e.getMessage().contains("null"));
  }

  @Test
  void rejectsTrailingGarbageAfterTheGzipMember() {
    byte[] compressed = IdxFiles.gzip(IdxFiles.labels(1, 2, 3));
    byte[] withGarbage = IdxFiles.append(compressed, 5);
    withGarbage[compressed.length] = 'x';
    Path file = write("labels.gz", withGarbage, false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readLabels(file));

    assertEquals(
        file
            + ": 5 bytes of trailing garbage at offset "
            + compressed.length
            + ", after the gzip data ended (11 bytes decompressed from 1 member): expected the end "
            + "of the file or another gzip member (1f 8b), found 78 00",
        e.getMessage());
  }

  @Test
  void rejectsTrailingZerosAfterTheGzipMember() {
    byte[] compressed = IdxFiles.gzip(IdxFiles.labels(1, 2, 3));
    Path file = write("labels.gz", IdxFiles.append(compressed, 1), false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readLabels(file));

    assertMessageContains(
        e,
        "1 byte of trailing garbage at offset " + compressed.length,
        "found 00 and then the end of the file");
  }

  @Test
  void readsConcatenatedGzipMembersAsOneStream() throws Exception {
    byte[] whole = IdxFiles.labels(7, 8, 9, 10);
    byte[] first = IdxFiles.gzip(java.util.Arrays.copyOf(whole, 6));
    byte[] second = IdxFiles.gzip(java.util.Arrays.copyOfRange(whole, 6, whole.length));
    byte[] both = IdxFiles.append(first, second.length);
    System.arraycopy(second, 0, both, first.length, second.length);
    Path file = write("labels.gz", both, false);

    assertArrayEquals(new int[] {7, 8, 9, 10}, Idx.readLabels(file));
  }

  @Test
  void rejectsDamagedGzipDataByItsCrc() {
    byte[] content = new byte[4000];
    byte[] compressed = IdxFiles.gzip(IdxFiles.idx(Idx.LABELS_MAGIC, new int[] {4000}, content));
    compressed[compressed.length - 8] ^= 0x01;
    Path file = write("labels.gz", compressed, false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readLabels(file));

    assertMessageContains(
        e,
        file
            + ": gzip member 1 is damaged: its trailer at offset "
            + (compressed.length - 8)
            + " records CRC-32 0x",
        ", the decompressed data has 0x");
  }

  @Test
  void rejectsCorruptDeflateData() {
    byte[] compressed = IdxFiles.gzip(IdxFiles.images(10, 28, 28));
    compressed[10] = (byte) 0xff; // The first deflate block header: reserved block type 3.
    Path file = write("images.gz", compressed, false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertMessageContains(
        e,
        file + ": corrupt gzip data in member 1, before offset ",
        "expected a valid deflate stream, zlib says: ");
  }

  @Test
  void rejectsAGzipHeaderCutShort() {
    Path file = write("labels.gz", new byte[] {0x1f, (byte) 0x8b, 8, 0, 0}, false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readLabels(file));

    assertEquals(
        file
            + ": truncated gzip data: the header of member 1 (at offset 0) is cut at "
            + "offset 5, where the file ends: expected its time, extra flags and system",
        e.getMessage());
  }

  @Test
  void rejectsAnUnknownCompressionMethod() {
    byte[] compressed = IdxFiles.gzip(IdxFiles.labels(1));
    compressed[2] = 7;
    Path file = write("labels.gz", compressed, false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readLabels(file));

    assertEquals(
        file + ": gzip member 1 at offset 0 uses compression method 7, expected 8 " + "(deflate)",
        e.getMessage());
  }

  @Test
  void rejectsADirectoryNamingIt() throws Exception {
    Path sub = java.nio.file.Files.createDirectory(dir.resolve("train-images-idx3-ubyte.gz"));

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(sub));

    assertEquals(
        sub
            + ": is a directory, expected an IDX file of unsigned-byte images (plain or "
            + "gzip-compressed)",
        e.getMessage());
  }

  @Test
  void hugeHeaderSaysHowManyBytesItClaims() {
    byte[] content = IdxFiles.idx(Idx.IMAGES_MAGIC, new int[] {60000, 60000, 60000}, new byte[10]);
    Path file = write("images", content, false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertEquals(
        file
            + ": header says 60000 images of 60000x60000, which is 216000000000000 "
            + "bytes, more than the limit of 2147483639 bytes",
        e.getMessage());
  }
}
