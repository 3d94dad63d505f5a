package dev.kiln.serving;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The model versions a server serves now, by name and version: what requests resolve against.
 * Thread-safe: requests read it from any thread while loads and unloads change it; a version is put
 * here only once it is ready, and taken out before it drains.
 */
final class ModelTable {
  private final Map<String, NavigableMap<Long, ServedModel>> models = new ConcurrentHashMap<>();

  /** A version as the protocol writes it: a whole number from 1. */
  static long parseVersion(String version) {
    if (!version.matches("[1-9][0-9]{0,17}")) {
      return -1;
    }
    return Long.parseLong(version);
  }

  /**
   * The version {@code version} of model {@code name}, or its highest one when {@code version} is
   * empty.
   *
   * @throws BadRequest 404 naming what is served
   */
  ServedModel find(String name, String version) throws BadRequest {
    NavigableMap<Long, ServedModel> versions = models.get(name);
    if (versions == null || versions.isEmpty()) {
      throw new BadRequest(404, "unknown model '" + name + "'; this server serves " + describe());
    }
    if (version.isEmpty()) {
      Map.Entry<Long, ServedModel> last = versions.lastEntry();
      if (last == null) {
        throw new BadRequest(404, "model '" + name + "' has no version loaded");
      }
      return last.getValue();
    }
    long v = parseVersion(version);
    ServedModel m = v < 0 ? null : versions.get(v);
    if (m == null) {
      throw new BadRequest(
          404,
          "model '"
              + name
              + "' has no version '"
              + version
              + "'; it has "
              + (versions.size() == 1 ? "version " : "versions ")
              + String.join(", ", versionsOf(name)));
    }
    return m;
  }

  /** The versions of {@code name} served, lowest first (empty if none). */
  List<String> versionsOf(String name) {
    NavigableMap<Long, ServedModel> versions = models.get(name);
    List<String> out = new ArrayList<>();
    if (versions != null) {
      versions.values().forEach(m -> out.add(m.version()));
    }
    return out;
  }

  /** Every version served, by name then version. */
  List<ServedModel> all() {
    List<ServedModel> out = new ArrayList<>();
    models.keySet().stream().sorted().forEach(n -> out.addAll(models.get(n).values()));
    return out;
  }

  /** Makes {@code m} findable. */
  void put(ServedModel m) {
    models
        .computeIfAbsent(m.name(), k -> new ConcurrentSkipListMap<>())
        .put(parseVersion(m.version()), m);
  }

  /** Takes version {@code version} of {@code name} out, or null if it is not there. */
  ServedModel remove(String name, String version) {
    NavigableMap<Long, ServedModel> versions = models.get(name);
    if (versions == null) {
      return null;
    }
    ServedModel m = versions.remove(parseVersion(version));
    models.computeIfPresent(name, (k, v) -> v.isEmpty() ? null : v);
    return m;
  }

  /** E.g. {@code 'lenet' (versions 1, 2), 'mlp' (version 1)}, or "no model". */
  String describe() {
    List<String> parts = new ArrayList<>();
    models.keySet().stream()
        .sorted()
        .forEach(
            n -> {
              List<String> v = versionsOf(n);
              parts.add(
                  "'"
                      + n
                      + "' ("
                      + (v.size() == 1 ? "version " : "versions ")
                      + String.join(", ", v)
                      + ")");
            });
    return parts.isEmpty() ? "no model now" : String.join(", ", parts);
  }
}
