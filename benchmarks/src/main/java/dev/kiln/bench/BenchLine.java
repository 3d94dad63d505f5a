package dev.kiln.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The one-line protocol between the benchmark and its child JVMs: a child prints {@code @bench
 * key=value ...} on standard output for each result (values without spaces); everything else it
 * prints is passed through.
 */
final class BenchLine {
  /** The prefix that marks a result line. */
  static final String PREFIX = "@bench ";

  private BenchLine() {}

  /** Formats {@code keyValues} (key, value, key, value, ...) as a result line. */
  static String format(Object... keyValues) {
    if (keyValues.length % 2 != 0) {
      throw new IllegalArgumentException("keys and values must pair up");
    }
    StringJoiner line = new StringJoiner(" ", PREFIX, "");
    for (int i = 0; i < keyValues.length; i += 2) {
      String key = String.valueOf(keyValues[i]);
      String value = String.valueOf(keyValues[i + 1]);
      if (key.isEmpty() || key.contains("=") || key.contains(" ") || value.contains(" ")) {
        throw new IllegalArgumentException("bad key or value: '" + key + "'='" + value + "'");
      }
      line.add(key + "=" + value);
    }
    return line.toString();
  }

  /** The keys and values of a result line, in order, or null if {@code line} is not one. */
  static Map<String, String> parse(String line) {
    if (!line.startsWith(PREFIX)) {
      return null;
    }
    Map<String, String> result = new LinkedHashMap<>();
    for (String part : line.substring(PREFIX.length()).trim().split(" +")) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("malformed result line: " + line);
      }
      result.put(part.substring(0, eq), part.substring(eq + 1));
    }
    return result;
  }
}
