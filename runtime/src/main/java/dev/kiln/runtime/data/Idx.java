package dev.kiln.runtime.data;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads IDX files, the format of MNIST and Fashion-MNIST: a big-endian magic number, one 32-bit
 * big-endian size per dimension, then the unsigned-byte payload in row-major order.
 *
 * <p>Files may be plain or gzip-compressed; compression is detected from the gzip magic bytes
 * {@code 0x1f 0x8b}, not from the file name. The header is validated before the payload is
 * allocated, and the payload must hold exactly the number of bytes the header announces. A gzip
 * file is read strictly (see {@link IdxGzip}): a cut stream, a damaged member and bytes after the
 * last member are errors. Every problem is reported as an {@link IdxFormatException} whose message
 * names the file, what was expected and what was found.
 */
public final class Idx {

  /** Magic number of an unsigned-byte, three-dimensional file: {@code [count, rows, cols]}. */
  public static final int IMAGES_MAGIC = 0x00000803;

  /** Magic number of an unsigned-byte, one-dimensional file: {@code [count]}. */
  public static final int LABELS_MAGIC = 0x00000801;

  /** The largest payload accepted, in bytes: the largest array size the JVM reliably allocates. */
  public static final long MAX_PAYLOAD_BYTES = Integer.MAX_VALUE - 8;

  private static final int GZIP_MAGIC_1 = 0x1f;
  private static final int GZIP_MAGIC_2 = 0x8b;
  private static final int BUFFER_SIZE = 1 << 16;

  /**
   * The contents of an unsigned-byte image file.
   *
   * @param count the number of images
   * @param rows the height of each image in pixels
   * @param cols the width of each image in pixels
   * @param pixels {@code count * rows * cols} unsigned bytes, image after image, row-major; read a
   *     pixel with {@code pixels[i] & 0xff}
   */
  public record Images(int count, int rows, int cols, byte[] pixels) {

    /**
     * Returns the number of pixels in one image.
     *
     * @return {@code rows * cols}
     */
    public int imageSize() {
      return rows * cols;
    }

    /**
     * Returns the pixels as floats scaled from {@code [0, 255]} to {@code [0, 1]} ({@code p /
     * 255}), in the same order: the features of a {@link Dataset} of {@link #imageSize()} floats
     * per example.
     *
     * @return a new array of {@code count * rows * cols} floats in {@code [0, 1]}
     */
    public float[] scaledPixels() {
      float[] scaled = new float[pixels.length];
      for (int i = 0; i < pixels.length; i++) {
        scaled[i] = (pixels[i] & 0xff) / 255f;
      }
      return scaled;
    }
  }

  /** The two kinds of IDX file this reader understands. */
  private enum Kind {
    IMAGES(IMAGES_MAGIC, "unsigned-byte images", "image count", "rows", "cols"),
    LABELS(LABELS_MAGIC, "unsigned-byte labels", "label count");

    final int magic;
    final String description;
    final String[] dimensionNames;

    Kind(int magic, String description, String... dimensionNames) {
      this.magic = magic;
      this.description = description;
      this.dimensionNames = dimensionNames;
    }

    int headerBytes() {
      return 4 + 4 * dimensionNames.length;
    }

    /** Describes what a header announces, for example "60000 images of 28x28". */
    String describe(int[] dims) {
      return this == LABELS
          ? dims[0] + " labels"
          : dims[0] + " images of " + dims[1] + "x" + dims[2];
    }
  }

  private Idx() {}

  /**
   * Reads an unsigned-byte image file (magic {@code 0x00000803}).
   *
   * @param file a plain or gzip-compressed IDX file
   * @return the images
   * @throws IdxFormatException if the file is not a well-formed IDX image file
   * @throws IOException if the file cannot be read
   */
  public static Images readImages(Path file) throws IOException {
    int[] dims = new int[Kind.IMAGES.dimensionNames.length];
    byte[] pixels = read(file, Kind.IMAGES, dims);
    return new Images(dims[0], dims[1], dims[2], pixels);
  }

  /**
   * Reads an unsigned-byte label file (magic {@code 0x00000801}).
   *
   * @param file a plain or gzip-compressed IDX file
   * @return the labels, as unsigned values in {@code [0, 255]}
   * @throws IdxFormatException if the file is not a well-formed IDX label file
   * @throws IOException if the file cannot be read
   */
  public static int[] readLabels(Path file) throws IOException {
    byte[] bytes = read(file, Kind.LABELS, new int[Kind.LABELS.dimensionNames.length]);
    int[] labels = new int[bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      labels[i] = bytes[i] & 0xff;
    }
    return labels;
  }

  /**
   * Returns whether a file starts with the gzip magic bytes.
   *
   * @param file the file to inspect
   * @return true if the first two bytes are {@code 0x1f 0x8b}
   * @throws IdxFormatException if it is a directory
   * @throws IOException if the file cannot be read
   */
  public static boolean isGzip(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new IdxFormatException(file + ": is a directory, expected an IDX file");
    }
    try (InputStream in = Files.newInputStream(file)) {
      return in.read() == GZIP_MAGIC_1 && in.read() == GZIP_MAGIC_2;
    }
  }

  /** Reads and validates a file of the given kind, storing its dimensions in {@code dims}. */
  private static byte[] read(Path file, Kind kind, int[] dims) throws IOException {
    if (Files.isDirectory(file)) {
      throw new IdxFormatException(
          file
              + ": is a directory, expected an IDX file of "
              + kind.description
              + " (plain or gzip-compressed)");
    }
    boolean gzip = isGzip(file);
    try (InputStream in = open(file, gzip)) {
      readHeader(file, kind, in, dims);
      long expected = payloadBytes(file, kind, dims);
      if (!gzip) {
        long actual = Files.size(file) - kind.headerBytes();
        if (actual != expected) {
          throw lengthMismatch(file, kind, dims, expected, actual, false);
        }
      }
      byte[] payload = in.readNBytes((int) expected);
      long trailing = in.transferTo(OutputStream.nullOutputStream());
      if (payload.length != expected || trailing != 0) {
        throw lengthMismatch(file, kind, dims, expected, payload.length + trailing, gzip);
      }
      return payload;
    }
  }

  private static InputStream open(Path file, boolean gzip) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(file), BUFFER_SIZE);
    if (!gzip) {
      return in;
    }
    try {
      return new IdxGzip(file, in);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** Reads the magic number and dimension sizes, checking each as soon as it is known. */
  private static void readHeader(Path file, Kind kind, InputStream in, int[] dims)
      throws IOException {
    byte[] header = in.readNBytes(kind.headerBytes());
    if (header.length < 4) {
      throw new IdxFormatException(
          String.format(
              "%s: too short for an IDX file: expected a %d-byte header, found %d bytes",
              file, kind.headerBytes(), header.length));
    }
    ByteBuffer buffer = ByteBuffer.wrap(header); // Big-endian by default.
    int magic = buffer.getInt();
    if (magic != kind.magic) {
      throw new IdxFormatException(
          String.format(
              "%s: expected magic 0x%08x (%s), found 0x%08x",
              file, kind.magic, kind.description, magic));
    }
    if (header.length < kind.headerBytes()) {
      throw new IdxFormatException(
          String.format(
              "%s: header truncated: expected %d bytes, found %d",
              file, kind.headerBytes(), header.length));
    }
    for (int i = 0; i < dims.length; i++) {
      dims[i] = buffer.getInt();
      if (dims[i] <= 0) {
        throw new IdxFormatException(
            String.format(
                "%s: expected %s > 0 in the header, found %d",
                file, kind.dimensionNames[i], dims[i]));
      }
    }
  }

  /** Returns the payload size the header announces, rejecting sizes over the limit. */
  private static long payloadBytes(Path file, Kind kind, int[] dims) throws IdxFormatException {
    BigInteger bytes = BigInteger.ONE;
    for (int dim : dims) {
      bytes = bytes.multiply(BigInteger.valueOf(dim));
    }
    if (bytes.compareTo(BigInteger.valueOf(MAX_PAYLOAD_BYTES)) > 0) {
      throw new IdxFormatException(
          String.format(
              "%s: header says %s, which is %s bytes, more than the limit of %d bytes",
              file, kind.describe(dims), bytes, MAX_PAYLOAD_BYTES));
    }
    return bytes.longValueExact();
  }

  private static IdxFormatException lengthMismatch(
      Path file, Kind kind, int[] dims, long expected, long actual, boolean gzip) {
    return new IdxFormatException(
        String.format(
            "%s: header says %s (%d bytes) but the %sfile holds %d bytes after the %d-byte header"
                + " (%s)",
            file,
            kind.describe(dims),
            expected,
            gzip ? "decompressed " : "",
            actual,
            kind.headerBytes(),
            actual < expected ? "truncated" : (actual - expected) + " trailing"));
  }
}
