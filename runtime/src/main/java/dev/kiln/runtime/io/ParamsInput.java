package dev.kiln.runtime.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/** Positional little-endian reads of a file whose length is fixed when it is opened. */
final class ParamsInput {
  private final Path file;
  private final FileChannel channel;
  private final long size;
  private final ByteBuffer small = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
  private long position;

  ParamsInput(Path file, FileChannel channel) throws IOException {
    this.file = file;
    this.channel = channel;
    this.size = channel.size();
  }

  long position() {
    return position;
  }

  long remaining() {
    return size - position;
  }

  /** Throws a truncation error unless {@code bytes} more bytes are left. */
  void need(long bytes, String what) throws CheckpointException {
    if (bytes > remaining()) {
      throw error(
          "truncated: "
              + what
              + " needs "
              + ParamsFile.number(bytes)
              + " bytes at offset "
              + ParamsFile.number(position)
              + " but "
              + ParamsFile.number(remaining())
              + " remain");
    }
  }

  int getInt() throws IOException {
    return fill(4).getInt();
  }

  long getLong() throws IOException {
    return fill(8).getLong();
  }

  ByteBuffer getBytes(int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    ParamsFile.readFully(file, channel, b, position);
    position += n;
    return b.flip();
  }

  void skip(long n) {
    position += n;
  }

  /**
   * Whether the bytes from {@code at} to the end of the file are exactly a key count of {@code n}
   * and {@code n} length-prefixed keys: what a file whose header over-counts its arrays has where
   * the next array should start. Reads only the lengths.
   */
  boolean keysEndTheFileAt(long at, int n) throws IOException {
    long p = at;
    if (size - p < 8 || longAt(p) != n) {
      return false;
    }
    p += 8;
    for (int k = 0; k < n; k++) {
      if (size - p < 8) {
        return false;
      }
      long length = longAt(p);
      if (length < 0 || length > ParamsFile.MAX_KEY_BYTES || length > size - p - 8) {
        return false;
      }
      p += 8 + length;
    }
    return p == size;
  }

  /** {@code n} bytes at {@code at} (already known to lie within the file). */
  byte[] bytesAt(long at, int n) throws IOException {
    ByteBuffer b = ByteBuffer.allocate(n);
    ParamsFile.readFully(file, channel, b, at);
    return b.array();
  }

  private long longAt(long at) throws IOException {
    small.clear().limit(8);
    ParamsFile.readFully(file, channel, small, at);
    return small.flip().getLong();
  }

  CheckpointException error(String problem) {
    return new CheckpointException(file, problem);
  }

  private ByteBuffer fill(int n) throws IOException {
    small.clear().limit(n);
    ParamsFile.readFully(file, channel, small, position);
    position += n;
    return small.flip();
  }
}
