package dev.kiln.runtime.io;

import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Shape;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An MXNet checkpoint, {@code <prefix>-symbol.json} and {@code <prefix>-0000.params}, as MXNet's
 * {@code mx.model.save_checkpoint} lays it out and {@code mx.model.load_checkpoint}, Gluon's
 * {@code SymbolBlock.imports} and DJL's {@code Model.load(dir, prefix)} read it.
 *
 * <p>The arrays are given as a table from key ({@code arg:<name>} for parameters, {@code
 * aux:<name>} for auxiliary states) to the Kiln tensor that holds them. Saving writes each file
 * atomically (see {@link ParamsFile#write(Path, List, List, java.util.function.IntFunction)});
 * the two files are replaced one after the other, the parameters first. Loading checks the whole
 * file, then that it holds exactly the table's keys with the table's shapes, and only then
 * copies anything into the tensors.
 */
public final class Checkpoint {
  /** The suffix of the symbol file. */
  public static final String SYMBOL_SUFFIX = "-symbol.json";

  /** The suffix of the parameter file (epoch 0, the one Kiln writes). */
  public static final String PARAMS_SUFFIX = "-0000.params";

  private Checkpoint() {}

  /** {@code <prefix>-symbol.json}. */
  public static Path symbolFile(Path prefix) {
    return prefix.resolveSibling(prefix.getFileName() + SYMBOL_SUFFIX);
  }

  /** {@code <prefix>-0000.params}. */
  public static Path paramsFile(Path prefix) {
    return prefix.resolveSibling(prefix.getFileName() + PARAMS_SUFFIX);
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
   * Writes {@code <prefix>-0000.params} with every array of {@code arrays} in its iteration
   * order, then {@code <prefix>-symbol.json}; parent directories are created. Each file is
   * replaced atomically and is left as it was if writing it fails.
   *
   * @throws IOException if a file cannot be written
   */
  public static void save(Path prefix, String symbolJson, Map<String, Tensor> arrays)
      throws IOException {
    writeParams(paramsFile(prefix), arrays);
    byte[] json = symbolJson.getBytes(StandardCharsets.UTF_8);
    AtomicFiles.write(symbolFile(prefix), channel -> {
      ByteBuffer buf = ByteBuffer.wrap(json);
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
    });
  }

  /**
   * Writes the arrays of {@code arrays} to the {@code .params} file {@code file} atomically,
   * copying one tensor at a time out of MXNet.
   *
   * @throws IOException if the file cannot be written
   */
  public static void writeParams(Path file, Map<String, Tensor> arrays) throws IOException {
    List<String> keys = List.copyOf(arrays.keySet());
    List<Tensor> tensors = new ArrayList<>(arrays.values());
    ParamsFile.write(file, keys, tensors.stream().map(Tensor::shape).toList(),
        i -> tensors.get(i).toFloatArray());
  }

  /**
   * Loads {@code <prefix>-0000.params} into {@code targets} (see {@link #readParams}).
   *
   * @throws CheckpointException if the file is malformed or does not fit {@code targets}
   * @throws IOException if it cannot be read (e.g. {@link NoSuchFileException})
   */
  public static void load(Path prefix, Map<String, Tensor> targets, boolean lenient)
      throws IOException {
    readParams(paramsFile(prefix), targets, lenient);
  }

  /**
   * Reads the {@code .params} file {@code file} into {@code targets}. The whole file is checked
   * first (see {@link ParamsFile}), then against the table: every key of {@code targets} must be
   * in the file, with the shape of its tensor; a key the table does not have is an error unless
   * {@code lenient}, in which case that array is skipped unread. Only when all of that holds are
   * the values read and copied into the tensors; on any error no tensor has changed.
   *
   * @throws CheckpointException if the file is malformed or does not fit {@code targets}
   * @throws IOException if it cannot be read (e.g. {@link NoSuchFileException})
   */
  public static void readParams(Path file, Map<String, Tensor> targets, boolean lenient)
      throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      List<ParamsFile.Entry> entries = ParamsFile.index(file, channel);
      List<ParamsFile.Entry> wanted = new ArrayList<>();
      for (ParamsFile.Entry e : entries) {
        Tensor target = targets.get(e.key());
        if (target == null) {
          if (!lenient) {
            throw new CheckpointException(file, "array " + e.index() + " '" + e.key()
                + "' is not in the model, whose arrays are " + keyList(targets.keySet())
                + " (load leniently to skip arrays the model does not have)");
          }
          continue;
        }
        Shape needed = target.shape();
        if (!e.shape().equals(needed)) {
          throw new CheckpointException(file, "array " + e.index() + " '" + e.key()
              + "' has shape " + e.shape() + ", the model needs " + needed);
        }
        wanted.add(e);
      }
      Set<String> present = entries.stream().map(ParamsFile.Entry::key)
          .collect(Collectors.toSet());
      List<String> missing = targets.keySet().stream().filter(k -> !present.contains(k))
          .toList();
      if (!missing.isEmpty()) {
        throw new CheckpointException(file, "has no array for " + keyList(missing)
            + ", which the model needs"
            + "; it holds " + keyList(entries.stream().map(ParamsFile.Entry::key).toList()));
      }
      List<float[]> values = new ArrayList<>(wanted.size());
      for (ParamsFile.Entry e : wanted) {
        values.add(ParamsFile.readData(file, channel, e));
      }
      for (int i = 0; i < wanted.size(); i++) {
        targets.get(wanted.get(i).key()).copyFrom(values.get(i));
      }
    }
  }

  private static String keyList(Collection<String> keys) {
    int shown = 8;
    String list = keys.stream().limit(shown).map(k -> "'" + k + "'")
        .collect(Collectors.joining(", "));
    return keys.isEmpty() ? "none" : keys.size() > shown
        ? list + " and " + (keys.size() - shown) + " more" : list;
  }
}
