package dev.kiln.runtime.io;

import dev.kiln.runtime.graph.Shape;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * MXNet's {@code .params} file (the NDArray list that {@code MXNDArraySave} writes and {@code
 * MXNDArrayLoad}, {@code mx.nd.load} and DJL read), written and read in plain Java for dense
 * float32 arrays.
 *
 * <p>The layout, all little-endian: the list magic {@code 0x112} and a reserved zero (two {@code
 * uint64}); the array count ({@code uint64}); per array the NDArray magic ({@code uint32}), the
 * storage type ({@code int32}, 0 = dense), the shape ({@code int32} ndim then {@code ndim} {@code
 * int64} dimensions), the context ({@code int32} device type, 1 = cpu, and {@code int32} device
 * id), the dtype ({@code int32}, 0 = float32) and the row-major data; then the key count ({@code
 * uint64}) and per key its byte length ({@code uint64}) and its UTF-8 bytes.
 *
 * <p>Files of MXNet before 1.0 load too, as MXNet 1.9.1's {@code NDArray::LegacyLoad} reads them:
 * an array that starts with the V1 magic ({@code 0xF993FAC8}) has no storage type and an {@code
 * int32} rank with {@code int64} dimensions; one written before that magic starts with its rank
 * ({@code uint32}, 1 to 32) and {@code uint32} dimensions; both go on with the context, dtype and
 * data as above.
 *
 * <p>Kiln writes the NDArray magic {@link #V2_MAGIC}: it is what MXNet 1.9.1 writes with NumPy
 * shape semantics off, and the one magic that loads both with them off (MXNet's classic loaders,
 * {@code mx.nd.load} outside {@code np_shape}) and with them globally on (DJL, and Kiln itself,
 * which runs MXNet that way). With them on MXNet writes {@link #V3_MAGIC} instead, which MXNet
 * refuses to load with them off; the files are otherwise byte for byte the same. Kiln reads both.
 * The one MXNet reader that refuses V2 is one with NumPy shapes on for a single thread (Python
 * under {@code npx.set_np()}): load Kiln files there outside that scope.
 *
 * <p>Reading validates every header before it allocates: the list magic, the reserved field, the
 * array count against a bound and against the bytes left, and for each array its magic, storage
 * type, rank, dimensions, context and dtype, and that its data fits in what is left of the file;
 * then the keys (one per array, {@code arg:} or {@code aux:} followed by a name, valid UTF-8, no
 * repeats) and that nothing follows them. A file that fails any check is a {@link
 * CheckpointException} naming the file, the array or key, what was expected and what was found. The
 * largest allocation a file can cause is its own length.
 */
public final class ParamsFile {
  /** MXNet's {@code kMXAPINDArrayListMagic}: the first {@code uint64} of a list file. */
  public static final long LIST_MAGIC = 0x112L;

  /** MXNet's {@code NDARRAY_V2_MAGIC} (arrays with a storage type): what Kiln writes. */
  public static final int V2_MAGIC = 0xF993FAC9;

  /** MXNet's {@code NDARRAY_V3_MAGIC}: V2 written under NumPy shape semantics. */
  public static final int V3_MAGIC = 0xF993FACA;

  /** Key prefix of a learnable parameter (an executor argument). */
  public static final String ARG_PREFIX = "arg:";

  /** Key prefix of an auxiliary state, such as a BatchNorm moving mean. */
  public static final String AUX_PREFIX = "aux:";

  /** Most dimensions an array may have. */
  public static final int MAX_NDIM = 32;

  /** Longest key, in UTF-8 bytes. */
  public static final int MAX_KEY_BYTES = 1024;

  /** Most arrays a file may hold. */
  public static final int MAX_ARRAYS = 1 << 20;

  /** Most elements one array may have (the largest Java {@code float[]}). */
  public static final int MAX_ELEMENTS = Integer.MAX_VALUE - 8;

  private static final int V1_MAGIC = 0xF993FAC8;
  static final int DENSE = 0;
  static final int CPU = 1;
  static final int FLOAT32 = 0;

  private static final int LIST_HEADER_BYTES = 24;

  /**
   * The smallest array, as MXNet before 1.0 wrote it: rank, one dimension, context, dtype, one
   * float.
   */
  private static final int MIN_ARRAY_BYTES = 4 + 4 + 8 + 4 + 4;

  static final int CHUNK = 1 << 16;

  /** Where one array's data lies in a file that passed every header check. */
  record Entry(int index, String key, Shape shape, long dataOffset) {
    /** Throws, naming this array of {@code file}, when its shape is not {@code needed}. */
    void requireShape(Path file, Shape needed) throws CheckpointException {
      if (!shape.equals(needed)) {
        throw new CheckpointException(
            file,
            "array " + index + " '" + key + "' has shape " + shape + ", the model needs " + needed);
      }
    }
  }

  private ParamsFile() {}

  /**
   * Writes {@code arrays}, in order, to {@code file} atomically (see {@link #write(Path, List,
   * List, IntFunction)}).
   *
   * @throws IOException if the file cannot be written; {@code file} is then left as it was
   */
  public static void write(Path file, List<NamedArray> arrays) throws IOException {
    write(
        file,
        arrays.stream().map(NamedArray::key).toList(),
        arrays.stream().map(NamedArray::shape).toList(),
        i -> arrays.get(i).data());
  }

  /**
   * Writes an NDArray list to {@code file}: array {@code i} has key {@code keys.get(i)}, shape
   * {@code shapes.get(i)} and the values {@code values.apply(i)} returns, asked for only when that
   * array is written, so that only one array need be in memory at a time.
   *
   * <p>The bytes are those {@code MXNDArraySave} writes for the same cpu float32 arrays with NumPy
   * shape semantics off. They go to a temporary file beside {@code file}, which is forced to disk
   * and then renamed over {@code file} in one atomic step (a plain replace where the file system
   * cannot rename atomically): a failure at any point, including an exception from {@code values},
   * leaves {@code file} as it was and no temporary file behind. Temporary files of {@code file}
   * that killed writers left behind are deleted first (see {@link AtomicFiles#removeStale}).
   *
   * @throws IllegalArgumentException if a key is malformed or repeated, a shape is not complete or
   *     has more than {@value #MAX_NDIM} dimensions, or {@code values} gives the wrong count
   * @throws IOException if the file cannot be written
   */
  public static void write(
      Path file, List<String> keys, List<Shape> shapes, IntFunction<float[]> values)
      throws IOException {
    Path abs = file.toAbsolutePath();
    AtomicFiles.removeStale(abs.getParent(), List.of(abs.getFileName().toString()));
    write(file, keys, shapes, values, () -> {});
  }

  /**
   * As {@link #write(Path, List, List, IntFunction)}, without first removing stale temporary files;
   * {@code beforeRename} runs once the complete file is on disk under its temporary name.
   *
   * @return the SHA-256 digest of the bytes written
   */
  static byte[] write(
      Path file,
      List<String> keys,
      List<Shape> shapes,
      IntFunction<float[]> values,
      AtomicFiles.BeforeRename beforeRename)
      throws IOException {
    if (keys.size() != shapes.size()) {
      throw new IllegalArgumentException(
          keys.size() + " keys for " + shapes.size() + " shapes: they must pair up");
    }
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      String key = keys.get(i);
      checkKey(key);
      checkShape(key, shapes.get(i));
      Integer before = seen.putIfAbsent(key, i);
      if (before != null) {
        throw new IllegalArgumentException(
            "key '" + key + "' is given twice, for arrays " + before + " and " + i);
      }
    }
    MessageDigest digest = Integrity.sha256();
    AtomicFiles.write(
        file,
        channel -> {
          ParamsOutput out = new ParamsOutput(channel, digest);
          out.putLong(LIST_MAGIC);
          out.putLong(0);
          out.putLong(keys.size());
          for (int i = 0; i < keys.size(); i++) {
            Shape shape = shapes.get(i);
            out.putInt(V2_MAGIC);
            out.putInt(DENSE);
            out.putInt(shape.rank());
            for (int d : shape.dims()) {
              out.putLong(d);
            }
            out.putInt(CPU);
            out.putInt(0);
            out.putInt(FLOAT32);
            float[] data = values.apply(i);
            if (data.length != shape.size()) {
              throw new IllegalArgumentException(
                  "array "
                      + i
                      + " '"
                      + keys.get(i)
                      + "' of shape "
                      + shape
                      + " takes "
                      + shape.size()
                      + " values, got "
                      + data.length);
            }
            out.putFloats(data);
          }
          out.putLong(keys.size());
          for (String key : keys) {
            byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
            out.putLong(bytes.length);
            out.putBytes(bytes);
          }
          out.flush();
        },
        beforeRename);
    return digest.digest();
  }

  /**
   * Reads every array of {@code file}, in file order.
   *
   * @throws CheckpointException if the file is not a well-formed list of dense float32 arrays with
   *     {@code arg:}/{@code aux:} keys (nothing large is allocated before that is known)
   * @throws IOException if the file cannot be read
   */
  public static List<NamedArray> read(Path file) throws IOException {
    try (FileChannel channel = open(file)) {
      List<Entry> entries = index(file, channel);
      List<NamedArray> arrays = new ArrayList<>(entries.size());
      for (Entry e : entries) {
        arrays.add(new NamedArray(e.key(), e.shape(), readData(file, channel, e)));
      }
      return arrays;
    }
  }

  /**
   * Opens {@code file} for reading; a directory is a {@link CheckpointException} naming it (the
   * platform's own error, "Is a directory", names nothing).
   *
   * @throws IOException if it cannot be opened (e.g. {@link java.nio.file.NoSuchFileException})
   */
  static FileChannel open(Path file) throws IOException {
    if (Files.isDirectory(file)) {
      throw new CheckpointException(
          file, "is a directory, expected a .params file (an MXNet " + "NDArray list)");
    }
    return FileChannel.open(file, StandardOpenOption.READ);
  }

  /**
   * Checks every header and key of an open file and says where each array's data lies; reads no
   * data and allocates nothing in proportion to what the headers claim.
   */
  static List<Entry> index(Path file, FileChannel channel) throws IOException {
    return index(file, channel, false);
  }

  /**
   * As {@link #index(Path, FileChannel)}; with {@code foreign}, a key may also be a plain name, as
   * Gluon's {@code ParameterDict.save} writes them (a file Kiln did not write).
   */
  static List<Entry> index(Path file, FileChannel channel, boolean foreign) throws IOException {
    ParamsInput in = new ParamsInput(file, channel);
    in.need(8, "the list magic");
    long magic = in.getLong();
    if (magic != LIST_MAGIC) {
      throw in.error(notAList(magic));
    }
    in.need(16, "the list header");
    long reserved = in.getLong();
    if (reserved != 0) {
      throw in.error(
          String.format(
              Locale.ROOT,
              "the reserved field after the list magic is 0x%x, expected 0",
              reserved));
    }
    long count = in.getLong();
    if (Long.compareUnsigned(count, MAX_ARRAYS) > 0) {
      throw in.error(
          "claims "
              + Long.toUnsignedString(count)
              + " arrays, more than the "
              + number(MAX_ARRAYS)
              + " Kiln reads");
    }
    // Each array takes at least MIN_ARRAY_BYTES; the key count follows them.
    long smallest = count * MIN_ARRAY_BYTES + 8;
    if (smallest > in.remaining()) {
      throw in.error(
          "truncated: claims "
              + plural(count, "array")
              + ", which take at least "
              + number(smallest)
              + " bytes, but "
              + number(in.remaining())
              + " remain");
    }
    int n = (int) count;
    List<Shape> shapes = new ArrayList<>(n);
    List<Long> offsets = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String what = "array " + i;
      if (in.remaining() < 12 && in.keysEndTheFileAt(in.position(), i)) {
        throw in.error(overCounted(count, i, in.position()));
      }
      in.need(12, what + "'s header");
      int arrayMagic = in.getInt();
      long[] dims;
      if (arrayMagic == V2_MAGIC || arrayMagic == V3_MAGIC) {
        int storage = in.getInt();
        if (storage != DENSE) {
          throw in.error(
              what
                  + " has storage type "
                  + storage
                  + " ("
                  + storageName(storage)
                  + "), Kiln reads only dense (0) arrays");
        }
        dims = dims(in, what, in.getInt(), Long.BYTES);
      } else if (arrayMagic == V1_MAGIC) {
        // MXNet 1.0's first magic: no storage type; int32 rank, int64 dimensions.
        dims = dims(in, what, in.getInt(), Long.BYTES);
      } else if (arrayMagic >= 1
          && arrayMagic <= MAX_NDIM
          && !in.keysEndTheFileAt(in.position() - 4, i)) {
        // Before the magic (MXNet 0.x, LegacyTShapeLoad): the rank first, uint32 dimensions.
        dims = dims(in, what, arrayMagic, Integer.BYTES);
      } else {
        long at = in.position() - 4;
        if (in.keysEndTheFileAt(at, i)) {
          throw in.error(overCounted(count, i, at));
        }
        throw in.error(
            String.format(
                Locale.ROOT,
                "%s at offset %s has NDArray magic 0x%08X, expected 0x%08X (V2), 0x%08X (V3), "
                    + "0x%08X (V1) or, as MXNet before 1.0 wrote, a rank of 1 to %d",
                what,
                number(at),
                arrayMagic,
                V2_MAGIC,
                V3_MAGIC,
                V1_MAGIC,
                MAX_NDIM));
      }
      int deviceType = in.getInt();
      int deviceId = in.getInt();
      if (!knownDevice(deviceType) || deviceId < 0) {
        throw in.error(
            what
                + " is on device (type "
                + deviceType
                + ", id "
                + deviceId
                + "), expected a cpu (1) or gpu (2) context");
      }
      int dtype = in.getInt();
      if (dtype != FLOAT32) {
        throw in.error(
            what
                + " has dtype "
                + dtypeName(dtype)
                + " ("
                + dtype
                + "), Kiln reads only float32 (0)");
      }
      long bytes = dataBytes(dims);
      if (bytes < 0 || bytes > in.remaining()) {
        throw in.error(
            "truncated: "
                + what
                + " of shape "
                + Arrays.toString(dims)
                + " needs "
                + (bytes < 0 ? "more than 2^63" : number(bytes))
                + " bytes of float32 data but "
                + number(in.remaining())
                + " remain");
      }
      if (bytes / Float.BYTES > MAX_ELEMENTS) {
        throw in.error(
            what
                + " of shape "
                + Arrays.toString(dims)
                + " has "
                + number(bytes / Float.BYTES)
                + " elements, more than the "
                + number(MAX_ELEMENTS)
                + " Kiln reads into one array");
      }
      int[] intDims = new int[dims.length];
      for (int d = 0; d < dims.length; d++) {
        intDims[d] = (int) dims[d];
      }
      shapes.add(Shape.of(intDims));
      offsets.add(in.position());
      in.skip(bytes);
    }
    in.need(8, "the key count");
    long keyCount = in.getLong();
    int low = (int) keyCount;
    if (keyCount != count && (low == V2_MAGIC || low == V3_MAGIC)) {
      throw in.error(
          String.format(
              Locale.ROOT,
              "claims %s but holds more: at offset %s, where "
                  + "the key count should be, another array starts (NDArray magic 0x%08X)",
              plural(count, "array"),
              number(in.position() - 8),
              low));
    }
    if (keyCount != count) {
      throw in.error(
          "has "
              + (keyCount == 1 ? "1 key" : Long.toUnsignedString(keyCount) + " keys")
              + " for "
              + plural(count, "array")
              + ", expected one "
              + ARG_PREFIX
              + "/"
              + AUX_PREFIX
              + " key per array");
    }
    List<Entry> entries = new ArrayList<>(n);
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < n; i++) {
      in.need(8, "key " + i + "'s length");
      long length = in.getLong();
      if (Long.compareUnsigned(length, MAX_KEY_BYTES) > 0) {
        throw in.error(
            "key "
                + i
                + " is "
                + Long.toUnsignedString(length)
                + " bytes long, more than "
                + number(MAX_KEY_BYTES));
      }
      in.need(length, "key " + i);
      String key;
      try {
        key =
            StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(in.getBytes((int) length))
                .toString();
      } catch (CharacterCodingException e) {
        throw new CheckpointException(
            file,
            "key "
                + i
                + " is not valid UTF-8: its "
                + plural(length, "byte")
                + " are "
                + hex(in.bytesAt(in.position() - length, (int) length))
                + ", expected the UTF-8 bytes of arg:<name> or aux:<name>",
            e);
      }
      String problem = keyProblem(key, foreign);
      if (problem != null) {
        throw in.error("key " + i + " " + problem);
      }
      Integer before = seen.putIfAbsent(key, i);
      if (before != null) {
        throw in.error("key " + i + " '" + key + "' repeats key " + before);
      }
      entries.add(new Entry(i, key, shapes.get(i), offsets.get(i)));
    }
    if (in.remaining() > 0) {
      throw in.error(
          "has "
              + number(in.remaining())
              + " bytes after the last key (at offset "
              + number(in.position())
              + "), expected the file to end there");
    }
    return entries;
  }

  /**
   * The {@code ndim} dimensions of array {@code what}, each {@code width} bytes (8 from MXNet 1.0
   * on, 4 before; unsigned), every one positive; with room after them for the context and dtype.
   */
  private static long[] dims(ParamsInput in, String what, int ndim, int width) throws IOException {
    if (ndim < 1 || ndim > MAX_NDIM) {
      throw in.error(what + " has " + ndim + " dimensions, expected 1 to " + MAX_NDIM);
    }
    in.need((long) width * ndim + 12, what + "'s shape, context and dtype");
    long[] dims = new long[ndim];
    for (int d = 0; d < ndim; d++) {
      dims[d] = width == Long.BYTES ? in.getLong() : Integer.toUnsignedLong(in.getInt());
    }
    for (int d = 0; d < ndim; d++) {
      if (dims[d] <= 0) {
        throw in.error(
            what
                + " has shape "
                + Arrays.toString(dims)
                + ": dimension "
                + d
                + " is "
                + dims[d]
                + ", every dimension must be positive");
      }
    }
    return dims;
  }

  /** Reads the values of one array that {@link #index} found. */
  static float[] readData(Path file, FileChannel channel, Entry entry) throws IOException {
    float[] out = new float[(int) entry.shape().size()];
    ByteBuffer buf =
        ByteBuffer.allocate(Math.min(CHUNK, out.length * Float.BYTES))
            .order(ByteOrder.LITTLE_ENDIAN);
    long at = entry.dataOffset();
    int done = 0;
    while (done < out.length) {
      int n = Math.min(out.length - done, buf.capacity() / Float.BYTES);
      buf.clear().limit(n * Float.BYTES);
      readFully(file, channel, buf, at);
      buf.flip();
      buf.asFloatBuffer().get(out, done, n);
      done += n;
      at += (long) n * Float.BYTES;
    }
    return out;
  }

  /** Throws if {@code key} is not {@code arg:}/{@code aux:} and a name of sane length. */
  static void checkKey(String key) {
    String problem = keyProblem(key, false);
    if (problem != null) {
      throw new IllegalArgumentException("key " + problem);
    }
    int bytes = key.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "key '"
              + key.substring(0, 40)
              + "...' is "
              + bytes
              + " bytes long in UTF-8, more than the "
              + MAX_KEY_BYTES
              + " a key may have");
    }
  }

  /** Throws if {@code shape} cannot be written: not complete, or of rank 0 or above 32. */
  static void checkShape(String key, Shape shape) {
    if (!shape.isComplete() || shape.rank() < 1 || shape.rank() > MAX_NDIM) {
      throw new IllegalArgumentException(
          "array '"
              + key
              + "' has shape "
              + shape
              + ", expected 1 to "
              + MAX_NDIM
              + " known dimensions");
    }
  }

  private static String keyProblem(String key, boolean foreign) {
    boolean prefixed = key.startsWith(ARG_PREFIX) || key.startsWith(AUX_PREFIX);
    if (!prefixed && !foreign) {
      return "'" + key + "' must start with " + ARG_PREFIX + " or " + AUX_PREFIX;
    }
    if (key.isEmpty() || (prefixed && key.length() == ARG_PREFIX.length())) {
      return "'" + key + "' has no name after its prefix";
    }
    for (int i = 0; i < key.length(); i++) {
      if (Character.isISOControl(key.charAt(i))) {
        return String.format(
            Locale.ROOT,
            "'%s' holds control character U+%04X at index %d "
                + "(shown as ?), expected printable characters only",
            key.replaceAll("\\p{Cntrl}", "?"),
            (int) key.charAt(i),
            i);
      }
    }
    return null;
  }

  /**
   * The header claims {@code count} arrays, but after {@code held} of them, at offset {@code at},
   * come their keys and the end of the file.
   */
  private static String overCounted(long count, int held, long at) {
    return "claims "
        + plural(count, "array")
        + " but holds "
        + number(held)
        + ": at offset "
        + number(at)
        + ", where array "
        + held
        + " should start, come "
        + plural(held, "key")
        + " and the end of the file";
  }

  private static String notAList(long magic) {
    byte[] first = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(magic).array();
    String hint =
        new String(first, 0, 4, StandardCharsets.ISO_8859_1).equals("DJL@")
            ? " (this is DJL's own parameter format)"
            : "";
    return String.format(
        Locale.ROOT,
        "not an MXNet NDArray list: it starts with 0x%016X, expected 0x%016X%s",
        magic,
        LIST_MAGIC,
        hint);
  }

  private static long dataBytes(long[] dims) {
    long n = Float.BYTES;
    for (long d : dims) {
      try {
        n = Math.multiplyExact(n, d);
      } catch (ArithmeticException e) {
        return -1;
      }
    }
    return n;
  }

  private static boolean knownDevice(int type) {
    // cpu, gpu, cpu_pinned, cpu_shared: MXNet always saves the bytes of a host copy.
    return type == 1 || type == 2 || type == 3 || type == 5;
  }

  private static String storageName(int type) {
    return switch (type) {
      case -1 -> "undefined";
      case 1 -> "row_sparse";
      case 2 -> "csr";
      default -> "unknown";
    };
  }

  private static String dtypeName(int type) {
    return switch (type) {
      case 1 -> "float64";
      case 2 -> "float16";
      case 3 -> "uint8";
      case 4 -> "int32";
      case 5 -> "int8";
      case 6 -> "int64";
      case 7 -> "bool";
      case 8 -> "int16";
      case 9 -> "uint16";
      case 10 -> "uint32";
      case 11 -> "uint64";
      case 12 -> "bfloat16";
      default -> "unknown";
    };
  }

  private static String plural(long n, String noun) {
    return number(n) + " " + noun + (n == 1 ? "" : "s");
  }

  static String number(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  static void readFully(Path file, FileChannel channel, ByteBuffer buf, long at)
      throws IOException {
    long position = at;
    while (buf.hasRemaining()) {
      int n;
      try {
        n = channel.read(buf, position);
      } catch (IOException e) {
        if (e instanceof FileSystemException || e instanceof CheckpointException) {
          throw e;
        }
        // The platform's read errors ("Input/output error") do not say which file.
        throw new IOException(
            file
                + ": cannot read "
                + number(buf.remaining())
                + " bytes at offset "
                + number(position)
                + ": "
                + e.getMessage(),
            e);
      }
      if (n < 0) {
        throw new CheckpointException(
            file,
            "truncated while it was being read: expected "
                + number(buf.remaining())
                + " more bytes at offset "
                + number(position)
                + ", but the file now ends there (was it replaced or cut meanwhile?)",
            new EOFException());
      }
      position += n;
    }
  }

  /** {@code bytes} as space-separated hex pairs, the first 32 of them. */
  static String hex(byte[] bytes) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < Math.min(bytes.length, 32); i++) {
      out.append(i == 0 ? "" : " ").append(String.format(Locale.ROOT, "%02x", bytes[i]));
    }
    return bytes.length > 32 ? out + " ..." : out.toString();
  }
}
