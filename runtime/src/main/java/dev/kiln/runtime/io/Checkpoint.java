package dev.kiln.runtime.io;

import dev.kiln.ops.file.SymbolFile;
import dev.kiln.runtime.exec.Tensor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An MXNet checkpoint, {@code <prefix>-symbol.json} and {@code <prefix>-0000.params}, as MXNet's
 * {@code mx.model.save_checkpoint} lays it out and {@code mx.model.load_checkpoint}, Gluon's {@code
 * SymbolBlock.imports} and DJL's {@code Model.load(dir, prefix)} read it, plus an integrity file
 * {@code <prefix>-0000.params.sha256} that Kiln writes and checks and every other reader ignores.
 *
 * <p>The arrays are given as a table from key ({@code arg:<name>} for parameters, {@code
 * aux:<name>} for auxiliary states) to the Kiln tensor that holds them.
 *
 * <p><b>Saving</b> first deletes the stale temporary files earlier saves of this checkpoint left
 * when their process was killed (see {@link AtomicFiles#removeStale}), then replaces each file
 * atomically, in this order: the symbol if there is no checkpoint yet; the parameters, to a
 * temporary file; the old integrity file is deleted; the parameters are renamed into place; the new
 * integrity file; the symbol if it changed. So at every moment a parameter file has a symbol beside
 * it, and an integrity file, when there is one, is that of the parameter file beside it: a crash at
 * any point leaves the old checkpoint or the new one, loadable, with at most one temporary file,
 * and a save that fails before the new parameters are in place leaves the old checkpoint as it was.
 * (A save that changes the architecture under an existing prefix can be cut between the parameters
 * and the symbol; the load then refuses the mix, naming the difference.)
 *
 * <p><b>Loading</b> also removes stale temporary files, then checks, before it copies anything:
 * that the stored symbol is the model's own architecture ({@link SymbolCheck}; not when lenient,
 * and a missing symbol file is an error), that the parameters have the SHA-256 their integrity file
 * records (when there is one), that the whole parameter file is well formed ({@link ParamsFile}),
 * and that it holds exactly the table's keys with the table's shapes.
 */
public final class Checkpoint {
  /** The suffix of the symbol file. */
  public static final String SYMBOL_SUFFIX = "-symbol.json";

  /** The suffix of the parameter file (epoch 0, the one Kiln writes). */
  public static final String PARAMS_SUFFIX = "-0000.params";

  /** The suffix of the integrity file: {@link #PARAMS_SUFFIX} and {@code .sha256}. */
  public static final String INTEGRITY_SUFFIX = PARAMS_SUFFIX + Integrity.SUFFIX;

  /** The largest symbol file read; real ones are kilobytes to a few megabytes. */
  public static final long MAX_SYMBOL_BYTES = 64L << 20;

  private static final Logger LOG = LoggerFactory.getLogger(Checkpoint.class);

  /** The steps of a save, for tests that look at the files between them. */
  enum Step {
    /** Stale temporary files are gone. */
    CLEANED,
    /** The new symbol is on disk under its temporary name. */
    SYMBOL_TEMP_WRITTEN,
    /** The new symbol is in place. */
    SYMBOL_WRITTEN,
    /** The new parameters are on disk under their temporary name. */
    PARAMS_TEMP_WRITTEN,
    /** The old integrity file is deleted. */
    INTEGRITY_DELETED,
    /** The new parameters are in place. */
    PARAMS_WRITTEN,
    /** The new integrity file is on disk under its temporary name. */
    INTEGRITY_TEMP_WRITTEN,
    /** The new integrity file is in place. */
    INTEGRITY_WRITTEN
  }

  /** Told of each {@link Step} of every save; tests only. */
  @FunctionalInterface
  interface StepListener {
    /** {@code step} has just been completed. */
    void reached(Step step);
  }

  /** Told of every save's steps; does nothing unless a test sets it. */
  static volatile StepListener steps = step -> {};

  private Checkpoint() {}

  /** {@code <prefix>-symbol.json}. */
  public static Path symbolFile(Path prefix) {
    return prefix.resolveSibling(prefix.getFileName() + SYMBOL_SUFFIX);
  }

  /** {@code <prefix>-0000.params}. */
  public static Path paramsFile(Path prefix) {
    return prefix.resolveSibling(prefix.getFileName() + PARAMS_SUFFIX);
  }

  /** {@code <prefix>-0000.params.sha256}, the SHA-256 of {@link #paramsFile}. */
  public static Path integrityFile(Path prefix) {
    return prefix.resolveSibling(prefix.getFileName() + INTEGRITY_SUFFIX);
  }

  /**
   * The prefix of a checkpoint named by one of its files ({@code out/mlp-0000.params}, {@code
   * out/mlp-0000.params.sha256} or {@code out/mlp-symbol.json} give {@code out/mlp}); any other
   * path is taken to be a prefix already and returned as it is.
   */
  public static Path prefixOf(Path path) {
    Path name = path.getFileName();
    if (name == null) {
      return path;
    }
    String n = name.toString();
    for (String suffix : new String[] {INTEGRITY_SUFFIX, PARAMS_SUFFIX, SYMBOL_SUFFIX}) {
      if (n.endsWith(suffix) && n.length() > suffix.length()) {
        return path.resolveSibling(n.substring(0, n.length() - suffix.length()));
      }
    }
    return path;
  }

  /** Whether any file of checkpoint {@code prefix} exists. */
  public static boolean exists(Path prefix) {
    return Files.exists(symbolFile(prefix))
        || Files.exists(paramsFile(prefix))
        || Files.exists(integrityFile(prefix));
  }

  /** The key of parameter {@code name}: {@code arg:<name>}. */
  public static String argKey(String name) {
    return ParamsFile.ARG_PREFIX + name;
  }

  /** The key of auxiliary state {@code name}: {@code aux:<name>}. */
  public static String auxKey(String name) {
    return ParamsFile.AUX_PREFIX + name;
  }

  /**
   * Saves the checkpoint {@code prefix}; parent directories are created. In order: removes the
   * stale temporary files of its three files; writes {@code <prefix>-symbol.json} if there is no
   * checkpoint yet; writes {@code <prefix>-0000.params} with every array of {@code arrays} in its
   * iteration order to a temporary file, deletes {@code <prefix>-0000.params.sha256} and renames
   * the parameters into place; writes the new {@code .sha256}; and replaces the symbol file if it
   * held another symbol. Each file is replaced atomically. If writing the parameters fails, nothing
   * has changed (the old integrity file is put back if it was already deleted).
   *
   * @throws IOException if a file cannot be written
   */
  public static void save(Path prefix, String symbolJson, Map<String, Tensor> arrays)
      throws IOException {
    removeStale(prefix);
    steps.reached(Step.CLEANED);
    byte[] json = symbolJson.getBytes(StandardCharsets.UTF_8);
    Path symbol = symbolFile(prefix);
    // First when there is no checkpoint yet, so that a parameter file never lies there
    // without one; last when it changes, so that a failed save leaves the old checkpoint whole.
    boolean first = !Files.exists(symbol) || !Files.exists(paramsFile(prefix));
    if (first) {
      writeSymbol(symbol, json);
    }
    writeParamsAndIntegrity(paramsFile(prefix), arrays);
    if (!first && !holds(symbol, json)) {
      writeSymbol(symbol, json);
    }
  }

  private static void writeSymbol(Path symbol, byte[] json) throws IOException {
    AtomicFiles.write(
        symbol,
        channel -> {
          ByteBuffer buf = ByteBuffer.wrap(json);
          while (buf.hasRemaining()) {
            channel.write(buf);
          }
        },
        () -> steps.reached(Step.SYMBOL_TEMP_WRITTEN));
    steps.reached(Step.SYMBOL_WRITTEN);
  }

  /**
   * Writes the arrays of {@code arrays} to the {@code .params} file {@code file} atomically,
   * copying one tensor at a time out of MXNet, and its integrity file {@code <file>.sha256}
   * (deleted just before the new parameters are renamed into place, written after). Stale temporary
   * files of both are removed first.
   *
   * @throws IOException if a file cannot be written
   */
  public static void writeParams(Path file, Map<String, Tensor> arrays) throws IOException {
    Path abs = file.toAbsolutePath();
    AtomicFiles.removeStale(
        abs.getParent(),
        List.of(abs.getFileName().toString(), Integrity.fileFor(abs).getFileName().toString()));
    writeParamsAndIntegrity(file, arrays);
  }

  private static void writeParamsAndIntegrity(Path file, Map<String, Tensor> arrays)
      throws IOException {
    Path integrity = Integrity.fileFor(file);
    byte[] oldIntegrity = Integrity.bytesIfSmall(integrity);
    boolean[] deleted = {false};
    List<String> keys = List.copyOf(arrays.keySet());
    List<Tensor> tensors = new ArrayList<>(arrays.values());
    byte[] digest;
    try {
      digest =
          ParamsFile.write(
              file,
              keys,
              tensors.stream().map(Tensor::shape).toList(),
              i -> tensors.get(i).toFloatArray(),
              () -> {
                // The new parameters are complete on disk: only now is the old integrity file
                // removed, just before they replace the old ones, so that it never describes
                // another file and the old parameters keep it for as long as possible.
                steps.reached(Step.PARAMS_TEMP_WRITTEN);
                AtomicFiles.delete(integrity);
                deleted[0] = true;
                steps.reached(Step.INTEGRITY_DELETED);
              });
    } catch (IOException | RuntimeException | Error e) {
      // The old parameters are still there: give them back their integrity file.
      if (deleted[0] && oldIntegrity != null) {
        try {
          Integrity.writeBytes(file, oldIntegrity, () -> {});
        } catch (IOException | RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
    steps.reached(Step.PARAMS_WRITTEN);
    Integrity.write(file, digest, () -> steps.reached(Step.INTEGRITY_TEMP_WRITTEN));
    steps.reached(Step.INTEGRITY_WRITTEN);
  }

  /**
   * Loads checkpoint {@code prefix} into {@code targets}, a model whose symbol is {@code
   * modelSymbolJson}. Removes stale temporary files of the checkpoint, then, unless {@code
   * lenient}, checks that {@code <prefix>-symbol.json} exists and describes the same graph (see
   * {@link SymbolCheck}); then reads {@code <prefix>-0000.params} as {@link #readParams} does. A
   * lenient load is one into a different architecture: it skips the symbol and arrays the model
   * does not have, and needs the rest by name and shape.
   *
   * @throws CheckpointException if a file is malformed, is damaged (its SHA-256 differs from the
   *     integrity file's), or does not fit the model; it names the file
   * @throws IOException if a file cannot be read (e.g. {@link NoSuchFileException} for the
   *     parameters)
   */
  public static void load(
      Path prefix, String modelSymbolJson, Map<String, Tensor> targets, boolean lenient)
      throws IOException {
    load(prefix, stored -> modelSymbolJson, targets, lenient);
  }

  /**
   * As {@link #load(Path, String, Map, boolean)}, for a model with a symbol per number of steps
   * (custom recurrent cells over {@code Dim.STEPS}): {@code modelSymbolFor} is given the stored
   * symbol's text, once it has been read and parsed, and returns the model's own symbol to compare
   * it with (the model's graph unrolled over the steps the stored one is).
   */
  public static void load(
      Path prefix,
      UnaryOperator<String> modelSymbolFor,
      Map<String, Tensor> targets,
      boolean lenient)
      throws IOException {
    removeStale(prefix);
    Path params = paramsFile(prefix);
    for (int attempt = 1; ; attempt++) {
      try (FileChannel channel = ParamsFile.open(params)) {
        if (!lenient) {
          checkSymbol(symbolFile(prefix), params, modelSymbolFor);
        }
        String damage = integrityProblem(params, channel);
        if (damage == null) {
          read(params, channel, targets, lenient);
          return;
        }
        // A save running beside this load may have replaced the parameters between reading
        // the integrity file and opening them: look once more before calling them damaged.
        if (attempt == 2) {
          throw new CheckpointException(params, damage);
        }
      }
    }
  }

  /**
   * Reads the {@code .params} file {@code file} into {@code targets}. When an integrity file {@code
   * <file>.sha256} is beside it, the file's SHA-256 must be the one it records. The whole file is
   * then checked (see {@link ParamsFile}), then against the table: every key of {@code targets}
   * must be in the file, with the shape of its tensor; a key the table does not have is an error
   * unless {@code lenient}, in which case that array is skipped unread. Only when all of that holds
   * are the values read and copied into the tensors; on any error no tensor has changed.
   *
   * @throws CheckpointException if the file is malformed, damaged or does not fit {@code targets}
   * @throws IOException if it cannot be read (e.g. {@link NoSuchFileException})
   */
  public static void readParams(Path file, Map<String, Tensor> targets, boolean lenient)
      throws IOException {
    try (FileChannel channel = ParamsFile.open(file)) {
      String damage = integrityProblem(file, channel);
      if (damage != null) {
        throw new CheckpointException(file, damage);
      }
      read(file, channel, targets, lenient);
    }
  }

  /**
   * Null if {@code file} has no integrity file or has the SHA-256 it records; otherwise what is
   * wrong, naming both digests and the integrity file.
   */
  private static String integrityProblem(Path file, FileChannel channel) throws IOException {
    byte[] recorded = Integrity.recorded(file);
    if (recorded == null) {
      return null;
    }
    byte[] actual = Integrity.digestOf(file, channel);
    if (MessageDigest.isEqual(recorded, actual)) {
      return null;
    }
    return "damaged: its SHA-256 is "
        + Integrity.hex(actual)
        + ", but "
        + Integrity.fileFor(file)
        + " records "
        + Integrity.hex(recorded)
        + " (the file "
        + "changed after it was saved: a damaged disk or copy, or an edit)";
  }

  private static void read(
      Path file, FileChannel channel, Map<String, Tensor> targets, boolean lenient)
      throws IOException {
    List<ParamsFile.Entry> entries = ParamsFile.index(file, channel);
    List<ParamsFile.Entry> wanted = new ArrayList<>();
    for (ParamsFile.Entry e : entries) {
      Tensor target = targets.get(e.key());
      if (target == null) {
        if (!lenient) {
          throw new CheckpointException(
              file,
              "array "
                  + e.index()
                  + " '"
                  + e.key()
                  + "' is not in the model, whose arrays are "
                  + keyList(targets.keySet())
                  + " (load leniently to skip arrays the model does not have)");
        }
        continue;
      }
      e.requireShape(file, target.shape());
      wanted.add(e);
    }
    Set<String> present = entries.stream().map(ParamsFile.Entry::key).collect(Collectors.toSet());
    List<String> missing = targets.keySet().stream().filter(k -> !present.contains(k)).toList();
    if (!missing.isEmpty()) {
      throw new CheckpointException(
          file,
          "has no array for "
              + keyList(missing)
              + ", which the model needs"
              + "; it holds "
              + keyList(entries.stream().map(ParamsFile.Entry::key).toList()));
    }
    List<float[]> values = new ArrayList<>(wanted.size());
    for (ParamsFile.Entry e : wanted) {
      values.add(ParamsFile.readData(file, channel, e));
    }
    for (int i = 0; i < wanted.size(); i++) {
      targets.get(wanted.get(i).key()).copyFrom(values.get(i));
    }
  }

  /**
   * Checks that {@code symbol} exists and is the graph that {@code modelJsonFor}, given the
   * symbol's text, describes.
   *
   * @throws CheckpointException naming {@code symbol} and the first difference
   */
  private static void checkSymbol(Path symbol, Path params, UnaryOperator<String> modelJsonFor)
      throws IOException {
    if (Files.isDirectory(symbol)) {
      throw new CheckpointException(
          symbol,
          "is a directory, expected the checkpoint's symbol "
              + "(MXNet JSON) beside "
              + params.getFileName());
    }
    long size;
    try {
      size = Files.size(symbol);
    } catch (NoSuchFileException e) {
      throw new CheckpointException(
          symbol,
          "missing: expected the symbol (MXNet JSON) beside "
              + params.getFileName()
              + ", which every MXNet, DJL and Kiln checkpoint has; without "
              + "it the parameters cannot be checked against this model's architecture (load "
              + "leniently to load them by name and shape alone)",
          e);
    }
    if (size > MAX_SYMBOL_BYTES) {
      throw new CheckpointException(
          symbol,
          "is "
              + ParamsFile.number(size)
              + " bytes long, "
              + "more than the "
              + ParamsFile.number(MAX_SYMBOL_BYTES)
              + " Kiln reads as a symbol");
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(Files.readAllBytes(symbol)))
              .toString();
    } catch (CharacterCodingException e) {
      throw new CheckpointException(symbol, "is not UTF-8 text, expected MXNet symbol JSON", e);
    }
    SymbolFile stored;
    try {
      stored = SymbolFile.parse(text);
    } catch (IllegalArgumentException e) {
      throw new CheckpointException(symbol, "not an MXNet symbol: " + e.getMessage(), e);
    }
    String difference =
        SymbolCheck.firstDifference(stored, SymbolFile.parse(modelJsonFor.apply(text)));
    if (difference != null) {
      throw new CheckpointException(symbol, "not this model's architecture: " + difference);
    }
  }

  /** Whether {@code file} is a regular file holding exactly {@code content}. */
  private static boolean holds(Path file, byte[] content) {
    try {
      return Files.isRegularFile(file)
          && Files.size(file) == content.length
          && Arrays.equals(Files.readAllBytes(file), content);
    } catch (IOException e) {
      return false;
    }
  }

  /** Removes the stale temporary files of the checkpoint's three files, logging what it did. */
  private static void removeStale(Path prefix) {
    Path abs = prefix.toAbsolutePath();
    List<AtomicFiles.Removed> removed =
        AtomicFiles.removeStale(
            abs.getParent(),
            List.of(
                symbolFile(abs).getFileName().toString(),
                paramsFile(abs).getFileName().toString(),
                integrityFile(abs).getFileName().toString()));
    if (!removed.isEmpty()) {
      LOG.info(
          "checkpoint {}: removed {} left by saves that did not finish ({} bytes)",
          prefix,
          removed.stream()
              .map(r -> r.file().getFileName().toString())
              .collect(Collectors.joining(", ")),
          removed.stream().mapToLong(AtomicFiles.Removed::size).sum());
    }
  }

  private static String keyList(Collection<String> keys) {
    int shown = 8;
    String list =
        keys.stream().limit(shown).map(k -> "'" + k + "'").collect(Collectors.joining(", "));
    return keys.isEmpty()
        ? "none"
        : keys.size() > shown ? list + " and " + (keys.size() - shown) + " more" : list;
  }
}
