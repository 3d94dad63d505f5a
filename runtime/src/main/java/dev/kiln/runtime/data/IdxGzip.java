package dev.kiln.runtime.data;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The decompressed content of a gzip file (RFC 1952), read strictly: every member's header, deflate
 * data, CRC-32 and length are checked, and after the last member the file must end. {@link
 * java.util.zip.GZIPInputStream} accepts bytes after the last member silently and reports a stream
 * cut inside a trailer as an {@link java.io.EOFException} without a message; here every problem is
 * an {@link IdxFormatException} naming the file, the offset, what was expected and what was found.
 * Several members one after the other (what {@code cat a.gz b.gz} makes) are one stream, as {@code
 * gzip -d} reads them.
 */
final class IdxGzip extends InputStream {
  private static final int ID1 = 0x1f;
  private static final int ID2 = 0x8b;
  private static final int DEFLATE = 8;
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;
  private static final int RESERVED = 0xe0;

  private final Path file;
  private final InputStream in;
  private final byte[] buf = new byte[1 << 16];
  private final Inflater inflater = new Inflater(true);
  private final CRC32 crc = new CRC32();
  private final CRC32 headerCrc = new CRC32();

  /** File offset of {@code buf[0]}. */
  private long base;

  private int pos;
  private int lim;
  private int member;
  private long memberOut;
  private long totalOut;
  private boolean done;

  /**
   * Reads the gzip file {@code file} from {@code in}, positioned at its first byte; checks the
   * first member's header at once.
   *
   * @throws IdxFormatException if that header is malformed
   * @throws IOException if {@code in} cannot be read
   */
  IdxGzip(Path file, InputStream in) throws IOException {
    this.file = file;
    this.in = in;
    try {
      startMember(true);
    } catch (IOException | RuntimeException e) {
      inflater.end();
      throw e;
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (!done) {
      if (inflater.finished()) {
        pos = lim - inflater.getRemaining();
        endMember();
        continue;
      }
      if (inflater.needsInput()) {
        if (pos == lim && !fill()) {
          throw error(
              String.format(
                  Locale.ROOT,
                  "truncated gzip data: the file ends at offset "
                      + "%,d inside the compressed data of gzip member %d (%,d bytes decompressed so "
                      + "far), expected more compressed data and then an 8-byte trailer",
                  offset(),
                  member,
                  totalOut));
        }
        inflater.setInput(buf, pos, lim - pos);
        pos = lim;
      }
      int n;
      try {
        n = inflater.inflate(b, off, len);
      } catch (DataFormatException e) {
        throw new IdxFormatException(
            String.format(
                Locale.ROOT,
                "%s: corrupt gzip data in "
                    + "member %d, before offset %,d: expected a valid deflate stream, zlib says: %s",
                file,
                member,
                offset() - inflater.getRemaining(),
                e.getMessage()),
            e);
      }
      if (n > 0) {
        crc.update(b, off, n);
        memberOut += n;
        totalOut += n;
        return n;
      }
      if (inflater.needsDictionary()) {
        throw error(
            "gzip member "
                + member
                + " asks for a preset dictionary, which gzip "
                + "files never use: expected plain deflate data");
      }
    }
    return -1;
  }

  @Override
  public void close() throws IOException {
    inflater.end();
    in.close();
  }

  /** Checks the trailer of the member just inflated; then the next member or the end. */
  private void endMember() throws IOException {
    long at = offset();
    byte[] trailer = new byte[8];
    int got = readBytes(trailer);
    if (got < 8) {
      throw error(
          String.format(
              Locale.ROOT,
              "truncated gzip data: the trailer of member %d "
                  + "at offset %,d has %d of its 8 bytes (CRC-32 and length), the file ends there",
              member,
              at,
              got));
    }
    long storedCrc = le32(trailer, 0);
    long storedSize = le32(trailer, 4);
    if (storedCrc != crc.getValue()) {
      throw error(
          String.format(
              Locale.ROOT,
              "gzip member %d is damaged: its trailer at "
                  + "offset %,d records CRC-32 0x%08x, the decompressed data has 0x%08x",
              member,
              at,
              storedCrc,
              crc.getValue()));
    }
    if (storedSize != (memberOut & 0xffffffffL)) {
      throw error(
          String.format(
              Locale.ROOT,
              "gzip member %d is damaged: its trailer at "
                  + "offset %,d records a length of %,d bytes (mod 2^32), the decompressed data has "
                  + "%,d",
              member,
              at + 4,
              storedSize,
              memberOut));
    }
    if (pos == lim && !fill()) {
      done = true;
      return;
    }
    startMember(false);
  }

  /** Reads and checks a member header; after the first, garbage there is what is reported. */
  private void startMember(boolean first) throws IOException {
    long at = offset();
    int id1 = readByte();
    int id2 = id1 < 0 ? -1 : readByte();
    if (id1 != ID1 || id2 != ID2) {
      if (first) {
        throw error(
            String.format(
                Locale.ROOT,
                "not gzip data: it starts with %s, expected " + "1f 8b",
                shown(id1, id2)));
      }
      long garbage = remainingBytes(at);
      throw error(
          String.format(
              Locale.ROOT,
              "%,d byte%s of trailing garbage at offset %,d, "
                  + "after the gzip data ended (%,d bytes decompressed from %d member%s): expected the "
                  + "end of the file or another gzip member (1f 8b), found %s",
              garbage,
              garbage == 1 ? "" : "s",
              at,
              totalOut,
              member,
              member == 1 ? "" : "s",
              shown(id1, id2)));
    }
    member++;
    headerCrc.reset();
    headerCrc.update(ID1);
    headerCrc.update(ID2);
    int method = headerByte(at, "its compression method");
    if (method != DEFLATE) {
      throw error(
          String.format(
              Locale.ROOT,
              "gzip member %d at offset %,d uses compression " + "method %d, expected 8 (deflate)",
              member,
              at,
              method));
    }
    int flags = headerByte(at, "its flags");
    if ((flags & RESERVED) != 0) {
      throw error(
          String.format(
              Locale.ROOT,
              "gzip member %d at offset %,d has flags 0x%02x: "
                  + "the reserved bits 0xe0 are set, expected them clear",
              member,
              at,
              flags));
    }
    for (int i = 0; i < 6; i++) {
      headerByte(at, "its time, extra flags and system");
    }
    if ((flags & FEXTRA) != 0) {
      int length =
          headerByte(at, "its extra field's length")
              | headerByte(at, "its extra field's length") << 8;
      for (int i = 0; i < length; i++) {
        headerByte(at, "its " + length + "-byte extra field");
      }
    }
    if ((flags & FNAME) != 0) {
      while (headerByte(at, "its zero-terminated file name") != 0) {
        // Skipped: the name stored in the file is not used.
      }
    }
    if ((flags & FCOMMENT) != 0) {
      while (headerByte(at, "its zero-terminated comment") != 0) {
        // Skipped.
      }
    }
    if ((flags & FHCRC) != 0) {
      long expected = headerCrc.getValue() & 0xffff;
      int stored = readByte();
      int high = stored < 0 ? -1 : readByte();
      if (high < 0) {
        throw cutHeader(at, "its header CRC-16");
      }
      if ((stored | high << 8) != expected) {
        throw error(
            String.format(
                Locale.ROOT,
                "gzip member %d at offset %,d has header "
                    + "CRC-16 0x%04x, the header's bytes give 0x%04x",
                member,
                at,
                stored | high << 8,
                expected));
      }
    }
    inflater.reset();
    crc.reset();
    memberOut = 0;
  }

  private int headerByte(long memberStart, String what) throws IOException {
    int b = readByte();
    if (b < 0) {
      throw cutHeader(memberStart, what);
    }
    headerCrc.update(b);
    return b;
  }

  private IdxFormatException cutHeader(long memberStart, String what) {
    return error(
        String.format(
            Locale.ROOT,
            "truncated gzip data: the header of member %d "
                + "(at offset %,d) is cut at offset %,d, where the file ends: expected %s",
            member,
            memberStart,
            offset(),
            what));
  }

  private int readByte() throws IOException {
    if (pos == lim && !fill()) {
      return -1;
    }
    return buf[pos++] & 0xff;
  }

  private int readBytes(byte[] out) throws IOException {
    int n = 0;
    while (n < out.length) {
      int b = readByte();
      if (b < 0) {
        break;
      }
      out[n++] = (byte) b;
    }
    return n;
  }

  /** Refills the buffer; false at the end of the file. */
  private boolean fill() throws IOException {
    base += lim;
    pos = 0;
    lim = 0;
    int n = in.read(buf, 0, buf.length);
    if (n > 0) {
      lim = n;
    }
    return n > 0;
  }

  /** The file offset of the next byte not yet consumed. */
  private long offset() {
    return base + pos;
  }

  /** How many bytes the file has from {@code at} on (reads to the end). */
  private long remainingBytes(long at) throws IOException {
    long n = offset() - at + (lim - pos);
    pos = lim;
    while (fill()) {
      n += lim;
      pos = lim;
    }
    return n;
  }

  private static long le32(byte[] b, int at) {
    return (b[at] & 0xffL)
        | (b[at + 1] & 0xffL) << 8
        | (b[at + 2] & 0xffL) << 16
        | (b[at + 3] & 0xffL) << 24;
  }

  private static String shown(int a, int b) {
    if (a < 0) {
      return "the end of the file";
    }
    return b < 0
        ? String.format(Locale.ROOT, "%02x and then the end of the file", a)
        : String.format(Locale.ROOT, "%02x %02x", a, b);
  }

  private IdxFormatException error(String problem) {
    return new IdxFormatException(file + ": " + problem);
  }
}
