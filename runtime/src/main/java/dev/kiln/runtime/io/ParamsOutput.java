package dev.kiln.runtime.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;

/** Buffered little-endian writes to a channel. */
final class ParamsOutput {
  private final FileChannel channel;
  private final MessageDigest digest;
  private final ByteBuffer buf =
      ByteBuffer.allocate(ParamsFile.CHUNK).order(ByteOrder.LITTLE_ENDIAN);

  ParamsOutput(FileChannel channel, MessageDigest digest) {
    this.channel = channel;
    this.digest = digest;
  }

  void putInt(int v) throws IOException {
    room(4);
    buf.putInt(v);
  }

  void putLong(long v) throws IOException {
    room(8);
    buf.putLong(v);
  }

  void putBytes(byte[] bytes) throws IOException {
    int done = 0;
    while (done < bytes.length) {
      room(1);
      int n = Math.min(buf.remaining(), bytes.length - done);
      buf.put(bytes, done, n);
      done += n;
    }
  }

  void putFloats(float[] values) throws IOException {
    int done = 0;
    while (done < values.length) {
      room(Float.BYTES);
      int n = Math.min(buf.remaining() / Float.BYTES, values.length - done);
      buf.asFloatBuffer().put(values, done, n);
      buf.position(buf.position() + n * Float.BYTES);
      done += n;
    }
  }

  void flush() throws IOException {
    buf.flip();
    digest.update(buf.duplicate());
    while (buf.hasRemaining()) {
      channel.write(buf);
    }
    buf.clear();
  }

  private void room(int n) throws IOException {
    if (buf.remaining() < n) {
      flush();
    }
  }
}
