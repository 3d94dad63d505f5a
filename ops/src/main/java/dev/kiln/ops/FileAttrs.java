package dev.kiln.ops;

import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.RuleError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The attributes of one node of an imported symbol file, as MXNet writes them: every value a string
 * in MXNet's own syntax ({@code "20"}, {@code "(5, 5)"}, {@code "True"}, {@code "relu"}). Each read
 * marks its key used; {@link #done} refuses a key nothing read, so that an attribute Kiln's unit
 * cannot honour is an error and never silently dropped.
 */
final class FileAttrs {
  private final String where;
  private final String op;
  private final Map<String, String> values;
  private final Set<String> used = new TreeSet<>();

  /**
   * The attributes {@code values} of a node of operator {@code op}, named {@code where} in
   * messages.
   */
  FileAttrs(String where, String op, Map<String, String> values) {
    this.where = where;
    this.op = op;
    this.values = new LinkedHashMap<>(values);
  }

  /** Whether the node has attribute {@code key}. */
  boolean has(String key) {
    return values.containsKey(key);
  }

  /** Marks {@code keys} read: attributes that change nothing Kiln computes (a workspace size). */
  FileAttrs ignore(String... keys) {
    used.addAll(List.of(keys));
    return this;
  }

  /** The raw value of {@code key}, or {@code fallback} when the node has none. */
  String string(String key, String fallback) {
    used.add(key);
    String v = values.get(key);
    return v == null ? fallback : strip(v);
  }

  /** A whole number. */
  int integer(String key, int fallback) {
    String v = string(key, null);
    if (v == null || v.equals("None")) {
      return fallback;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw bad(key, "a whole number");
    }
  }

  /** A number. */
  double decimal(String key, double fallback) {
    String v = string(key, null);
    if (v == null || v.equals("None")) {
      return fallback;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw bad(key, "a number");
    }
  }

  /** {@code True}, {@code False}, {@code true}, {@code false}, {@code 1} or {@code 0}. */
  boolean bool(String key, boolean fallback) {
    String v = string(key, null);
    if (v == null) {
      return fallback;
    }
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true", "1" -> true;
      case "false", "0" -> false;
      default -> throw bad(key, "True or False");
    };
  }

  /** A tuple, {@code (5, 5)}, {@code [5,5]}, {@code (5,)} or a single {@code 5}. */
  List<Integer> tuple(String key, List<Integer> fallback) {
    String v = string(key, null);
    if (v == null || v.equals("None")) {
      return fallback;
    }
    String inner = v;
    if ((inner.startsWith("(") && inner.endsWith(")"))
        || (inner.startsWith("[") && inner.endsWith("]"))) {
      inner = inner.substring(1, inner.length() - 1);
    }
    List<Integer> out = new ArrayList<>();
    for (String part : inner.split(",")) {
      String p = part.trim();
      if (p.isEmpty()) {
        continue;
      }
      try {
        out.add(Integer.parseInt(p.endsWith("L") ? p.substring(0, p.length() - 1) : p));
      } catch (NumberFormatException e) {
        throw bad(key, "a tuple of whole numbers such as (3, 3)");
      }
    }
    return out;
  }

  /** A value that must be one of {@code allowed} (MXNet's enumerations), lower case. */
  String choice(String key, String fallback, String... allowed) {
    String v = string(key, fallback);
    if (v == null) {
      return null;
    }
    for (String a : allowed) {
      if (a.equalsIgnoreCase(v)) {
        return a;
      }
    }
    throw unsupported(key, "Kiln imports " + String.join(", ", allowed));
  }

  /** Refuses the attribute {@code key} unless it is absent or {@code expected}. */
  void require(String key, String expected, String why) {
    String v = string(key, null);
    if (v != null && !v.equalsIgnoreCase(expected)) {
      throw unsupported(key, why);
    }
  }

  /** Refuses every attribute nothing read. */
  void done() {
    for (String key : values.keySet()) {
      if (!used.contains(key)) {
        throw unsupported(key, "Kiln's " + op + " takes " + taken());
      }
    }
  }

  /** The attributes read, for messages. */
  private String taken() {
    return used.isEmpty() ? "no attributes" : String.join(", ", used);
  }

  /** An attribute whose value Kiln's unit cannot compute. */
  RuleError unsupported(String key, String why) {
    return new RuleError(Message.IMPORT_ATTRIBUTE, null, where, op, key, values.get(key), why);
  }

  private RuleError bad(String key, String expected) {
    return new RuleError(
        Message.IMPORT_ATTRIBUTE, null, where, op, key, values.get(key), "expected " + expected);
  }

  private static String strip(String v) {
    String t = v.trim();
    if (t.length() >= 2 && (t.startsWith("'") && t.endsWith("'"))) {
      return t.substring(1, t.length() - 1);
    }
    return t;
  }

  /** {@code values}, or {@code fallback} once when they are empty (MXNet's "not set"). */
  static List<Integer> orDefault(List<Integer> values, int fallback) {
    return values.isEmpty() ? List.of(fallback) : values;
  }
}
