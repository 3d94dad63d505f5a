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
  void rejectsCorruptGzip() {
    byte[] compressed = IdxFiles.gzip(IdxFiles.images(10, 28, 28));
    Path file = write("images.gz", IdxFiles.truncate(compressed, compressed.length / 2), false);

    IdxFormatException e = assertThrows(IdxFormatException.class, () -> Idx.readImages(file));

    assertMessageContains(e, file.toString(), "corrupt or truncated gzip data");
  }
}
