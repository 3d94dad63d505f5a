package dev.kiln.runtime.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The integrity file of a {@code .params} file: {@code <params>.sha256}, one line in the format of
 * {@code sha256sum} ({@code <64 hex digits> <file name>}), so that {@code sha256sum -c
 * fashion-0000.params.sha256} checks it too. The MXNet format has no checksum of its own; with this
 * file a flipped bit in the float data is found when the checkpoint is loaded. Files without one
 * (MXNet's, DJL's) are read unchecked. The file name in the line is not compared: a renamed
 * checkpoint still loads.
 */
final class Integrity {
  /** What the integrity file's name adds to the parameter file's. */
  static final String SUFFIX = ".sha256";

  /** Longest integrity file read: one line with a file name of up to a few kilobytes. */
  static final int MAX_BYTES = 4096;

  private static final Pattern LINE = Pattern.compile("([0-9a-fA-F]{64}) [ *]([^\\r\\n]+)\\r?\\n?");
  private static final int CHUNK = 1 << 16;

  private Integrity() {}

  /** {@code <params>.sha256}. */
  static Path fileFor(Path params) {
    return params.resolveSibling(params.getFileName() + SUFFIX);
  }

  /** A new SHA-256 digest. */
  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }

  /** Lower-case hex. */
  static String hex(byte[] digest) {
    return HexFormat.of().formatHex(digest);
  }

  /**
   * Writes {@code <params>.sha256} atomically, recording {@code digest} for {@code params}; {@code
   * beforeRename} runs when the new file is on disk under its temporary name.
   *
   * @throws IOException if it cannot be written
   */
  static void write(Path params, byte[] digest, AtomicFiles.BeforeRename beforeRename)
      throws IOException {
    writeBytes(
        params,
        (hex(digest) + "  " + params.getFileName() + "\n").getBytes(StandardCharsets.UTF_8),
        beforeRename);
  }

  /** Writes {@code <params>.sha256} atomically with the content {@code line}. */
  static void writeBytes(Path params, byte[] line, AtomicFiles.BeforeRename beforeRename)
      throws IOException {
    AtomicFiles.write(
        fileFor(params),
        channel -> {
          ByteBuffer buf = ByteBuffer.wrap(line);
          while (buf.hasRemaining()) {
            channel.write(buf);
          }
        },
        beforeRename);
  }

  /**
   * The content of {@code file} if it is a regular file of at most {@link #MAX_BYTES} bytes;
   * otherwise, or if it cannot be read, null.
   */
  static byte[] bytesIfSmall(Path file) {
    try {
      if (Files.isRegularFile(file) && Files.size(file) <= MAX_BYTES) {
        return Files.readAllBytes(file);
      }
    } catch (IOException e) {
      // Nothing to keep.
    }
    return null;
  }

  /**
   * The digest that {@code <params>.sha256} records, or null if there is no such file.
   *
   * @throws CheckpointException if it is not one {@code sha256sum} line (naming the file, what was
   *     expected and what it holds)
   * @throws IOException if it exists but cannot be read
   */
  static byte[] recorded(Path params) throws IOException {
    Path file = fileFor(params);
    if (Files.isDirectory(file)) {
      throw new CheckpointException(
          file,
          "is a directory, expected the integrity file of "
              + params.getFileName()
              + " (one line: its SHA-256 in hex, two spaces, its name)");
    }
    long size;
    try {
      size = Files.size(file);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (size > MAX_BYTES) {
      throw new CheckpointException(
          file,
          "is "
              + ParamsFile.number(size)
              + " bytes long, "
              + "expected one line of at most "
              + ParamsFile.number(MAX_BYTES)
              + " bytes: the "
              + "SHA-256 of "
              + params.getFileName()
              + " in hex, two spaces, its name");
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return null;
    }
    String text = new String(bytes, StandardCharsets.ISO_8859_1);
    Matcher m = LINE.matcher(text);
    if (!m.matches()) {
      throw new CheckpointException(
          file,
          "expected one line '<64 hex digits>  "
              + params.getFileName()
              + "' (the format of sha256sum), found "
              + quote(text));
    }
    return HexFormat.of().parseHex(m.group(1).toLowerCase(Locale.ROOT));
  }

  /**
   * The SHA-256 of the whole file open on {@code channel}, read in pieces of up to 64 KiB.
   *
   * @throws IOException if it cannot be read
   */
  static byte[] digestOf(Path file, FileChannel channel) throws IOException {
    MessageDigest digest = sha256();
    ByteBuffer buf = ByteBuffer.allocate((int) Math.max(1, Math.min(CHUNK, channel.size())));
    long at = 0;
    while (true) {
      buf.clear();
      int n;
      try {
        n = channel.read(buf, at);
      } catch (IOException e) {
        throw new IOException(
            file
                + ": cannot read it to check its SHA-256 at offset "
                + ParamsFile.number(at)
                + ": "
                + e.getMessage(),
            e);
      }
      if (n < 0) {
        return digest.digest();
      }
      buf.flip();
      digest.update(buf);
      at += n;
    }
  }

  /** {@code text} in quotes, control characters escaped, cut after 100 characters. */
  private static String quote(String text) {
    StringBuilder out = new StringBuilder("'");
    for (int i = 0; i < Math.min(text.length(), 100); i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        out.append("\\n");
      } else if (c < 0x20 || c >= 0x7f) {
        out.append(String.format(Locale.ROOT, "\\x%02x", (int) c));
      } else {
        out.append(c);
      }
    }
    out.append('\'');
    return text.length() > 100 ? out + " ... (" + text.length() + " bytes)" : out.toString();
  }
}
