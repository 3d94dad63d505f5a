package dev.kiln.serving;

import dev.kiln.runtime.infer.InferenceOptions;
import dev.kiln.runtime.infer.Port;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.io.Checkpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/**
 * A model repository in Triton's layout, {@code DIR/<model>/<version>/} with one checkpoint in each
 * version folder ({@code PREFIX-symbol.json} and {@code PREFIX-0000.params}, any prefix), and the
 * loads and unloads that bring its versions into a {@link ModelTable} and take them out.
 *
 * <p>Loading a model loads each of its versions on disk that is not served yet (a version already
 * served stays as it is, serving throughout) and unloads the served versions no longer on disk; a
 * version is put into the table only once its replicas are bound, so a version that fails to load
 * is reported and never half-served. Unloading takes every version out of the table, then drains
 * each (the requests it accepted are answered) and frees it.
 *
 * <p>Threads: loads, unloads, polls and {@link #index()} are serialized on this object; requests
 * read the table meanwhile.
 */
final class Repository {
  /** One row of the repository's index: a version on disk or served, and its state. */
  record Entry(String name, String version, String state, String reason) {}

  private final Path dir;
  private final ModelTable table;
  private final List<Port> inputs;
  private final BiFunction<String, String, Predictor> loader;
  private final ModelMaker maker;

  /** The last failure of each model version that failed to load: name → version → reason. */
  private final Map<String, Map<String, String>> failures = new TreeMap<>();

  /** Makes a served version of a predictor (not yet in the table, not yet warm). */
  interface ModelMaker {
    ServedModel make(String name, String version, Predictor predictor);
  }

  /**
   * @param options how to run the checkpoints
   * @param inputs shapes for checkpoints that record none (a model's {@code save}), or empty
   */
  Repository(
      Path dir, ModelTable table, InferenceOptions options, List<Port> inputs, ModelMaker maker) {
    this.dir = dir;
    this.table = table;
    this.inputs = List.copyOf(inputs);
    this.maker = maker;
    this.loader = (name, version) -> Predictor.load(prefix(name, version), options, this.inputs);
  }

  Path dir() {
    return dir;
  }

  /** The models on disk: folders of {@code DIR} with a usable name. */
  List<String> modelsOnDisk() {
    List<String> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(dir)) {
      s.filter(Files::isDirectory)
          .map(p -> p.getFileName().toString())
          .filter(n -> n.matches("[A-Za-z0-9_.-]+"))
          .sorted()
          .forEach(out::add);
    } catch (IOException e) {
      throw new UncheckedIOException("reading the model repository " + dir, e);
    }
    return out;
  }

  /** The versions of {@code name} on disk: folders named by whole numbers from 1, lowest first. */
  List<String> versionsOnDisk(String name) {
    Path m = dir.resolve(name);
    if (!Files.isDirectory(m)) {
      return List.of();
    }
    TreeSet<Long> versions = new TreeSet<>();
    try (Stream<Path> s = Files.list(m)) {
      s.filter(Files::isDirectory)
          .map(p -> ModelTable.parseVersion(p.getFileName().toString()))
          .filter(v -> v > 0)
          .forEach(versions::add);
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + m, e);
    }
    return versions.stream().map(String::valueOf).toList();
  }

  /**
   * The checkpoint in {@code DIR/name/version/}: its one {@code -symbol.json}'s prefix.
   *
   * @throws IllegalArgumentException if there is none or more than one
   */
  Path prefix(String name, String version) {
    Path folder = dir.resolve(name).resolve(version);
    List<Path> symbols;
    try (Stream<Path> s = Files.list(folder)) {
      symbols = s.filter(p -> p.getFileName().toString().endsWith("-symbol.json")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + folder, e);
    }
    if (symbols.size() != 1) {
      throw new IllegalArgumentException(
          folder
              + " holds "
              + symbols.size()
              + " checkpoints; a version folder holds one (PREFIX-symbol.json with"
              + " PREFIX-0000.params)");
    }
    Path prefix = Checkpoint.prefixOf(symbols.get(0));
    if (!Files.isRegularFile(Checkpoint.paramsFile(prefix))) {
      throw new IllegalArgumentException(
          folder
              + " has "
              + symbols.get(0).getFileName()
              + " but no "
              + prefix.getFileName()
              + "-0000.params");
    }
    return prefix;
  }

  /**
   * Loads model {@code name}: each version on disk not served yet, each warmed up before it is
   * served; the served versions no longer on disk are unloaded (drained).
   *
   * @return the versions that failed, with their reasons (empty when all loaded)
   * @throws IllegalArgumentException if the repository has no such model (or no version of it)
   */
  synchronized Map<String, String> load(String name) {
    List<String> onDisk = versionsOnDisk(name);
    if (onDisk.isEmpty()) {
      throw new IllegalArgumentException(
          "the repository "
              + dir
              + " has no model '"
              + name
              + "' (a folder "
              + name
              + "/ with version folders 1/, 2/, ...); it has "
              + (modelsOnDisk().isEmpty() ? "none" : String.join(", ", modelsOnDisk())));
    }
    Map<String, String> failed = new LinkedHashMap<>();
    List<String> served = table.versionsOf(name);
    for (String v : onDisk) {
      if (served.contains(v)) {
        continue;
      }
      ServedModel m = null;
      try {
        m = maker.make(name, v, loader.apply(name, v));
        m.warmUp();
        table.put(m);
        failures.computeIfPresent(name, (k, f) -> f.remove(v) != null && f.isEmpty() ? null : f);
      } catch (RuntimeException e) {
        String reason = e.getMessage() != null ? e.getMessage() : e.toString();
        failed.put(v, reason);
        failures.computeIfAbsent(name, k -> new TreeMap<>()).put(v, reason);
      }
    }
    for (String v : served) {
      if (!onDisk.contains(v)) {
        ServedModel m = table.remove(name, v);
        if (m != null) {
          m.close();
        }
      }
    }
    return failed;
  }

  /**
   * Unloads every version of {@code name}: out of the table first (new requests get 404), then
   * drained and freed.
   *
   * @return whether any version was served
   */
  synchronized boolean unload(String name) {
    List<ServedModel> gone = new ArrayList<>();
    for (String v : table.versionsOf(name)) {
      ServedModel m = table.remove(name, v);
      if (m != null) {
        gone.add(m);
      }
    }
    gone.forEach(ServedModel::close);
    failures.remove(name);
    return !gone.isEmpty();
  }

  /**
   * One poll: loads every model on disk (new versions in, vanished ones out) and unloads the served
   * models whose folder is gone.
   *
   * @return each model version that failed, "name/version" → reason
   */
  synchronized Map<String, String> poll() {
    Map<String, String> failed = new LinkedHashMap<>();
    List<String> onDisk = modelsOnDisk();
    for (String name : onDisk) {
      if (versionsOnDisk(name).isEmpty()) {
        continue;
      }
      load(name).forEach((v, reason) -> failed.put(name + "/" + v, reason));
    }
    for (ServedModel m : table.all()) {
      if (!onDisk.contains(m.name())) {
        unload(m.name());
      }
    }
    return failed;
  }

  /**
   * Every model version on disk or served, with its state: {@code READY} (served), {@code
   * UNAVAILABLE} with the reason it failed to load, or no state (on disk, not loaded).
   */
  synchronized List<Entry> index() {
    Map<String, TreeSet<Long>> all = new TreeMap<>();
    for (String name : modelsOnDisk()) {
      TreeSet<Long> versions = all.computeIfAbsent(name, k -> new TreeSet<>());
      versionsOnDisk(name).forEach(v -> versions.add(ModelTable.parseVersion(v)));
    }
    for (ServedModel m : table.all()) {
      all.computeIfAbsent(m.name(), k -> new TreeSet<>()).add(ModelTable.parseVersion(m.version()));
    }
    List<Entry> out = new ArrayList<>();
    all.forEach(
        (name, versions) -> {
          List<String> served = table.versionsOf(name);
          for (long v : versions) {
            String version = String.valueOf(v);
            String reason = failures.getOrDefault(name, Map.of()).get(version);
            String state = served.contains(version) ? "READY" : reason != null ? "UNAVAILABLE" : "";
            out.add(new Entry(name, version, state, reason == null ? "" : reason));
          }
        });
    return out;
  }
}
