package dev.kiln.runtime.data;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/** Builds small IDX files for tests. */
public final class IdxFiles {
  private IdxFiles() {}

  /** Returns an IDX file's bytes: the magic, the dimension sizes, then the payload. */
  static byte[] idx(int magic, int[] dims, byte[] payload) {
    ByteBuffer buffer = ByteBuffer.allocate(4 + 4 * dims.length + payload.length);
    buffer.putInt(magic);
    for (int dim : dims) {
      buffer.putInt(dim);
    }
    buffer.put(payload);
    return buffer.array();
  }

  /** Returns an image file's bytes whose pixel {@code i} is {@code i % 256}. */
  public static byte[] images(int count, int rows, int cols) {
    return idx(Idx.IMAGES_MAGIC, new int[] {count, rows, cols}, pattern(count * rows * cols));
  }

  /** Returns a label file's bytes holding the given labels. */
  public static byte[] labels(int... labels) {
    byte[] payload = new byte[labels.length];
    for (int i = 0; i < labels.length; i++) {
      payload[i] = (byte) labels[i];
    }
    return idx(Idx.LABELS_MAGIC, new int[] {labels.length}, payload);
  }

  /** Returns {@code n} bytes where byte {@code i} is {@code i % 256}. */
  static byte[] pattern(int n) {
    byte[] bytes = new byte[n];
    for (int i = 0; i < n; i++) {
      bytes[i] = (byte) i;
    }
    return bytes;
  }

  /** Writes {@code content} to {@code file}, gzip-compressed if asked, and returns the file. */
  public static Path write(Path file, byte[] content, boolean gzip) {
    try {
      return Files.write(file, gzip ? gzip(content) : content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Returns {@code content} gzip-compressed. */
  static byte[] gzip(byte[] content) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Returns {@code content} followed by {@code extra} more bytes. */
  static byte[] append(byte[] content, int extra) {
    byte[] result = new byte[content.length + extra];
    System.arraycopy(content, 0, result, 0, content.length);
    return result;
  }

  /** Returns {@code content} without its last {@code missing} bytes. */
  static byte[] truncate(byte[] content, int missing) {
    byte[] result = new byte[content.length - missing];
    System.arraycopy(content, 0, result, 0, result.length);
    return result;
  }
}
