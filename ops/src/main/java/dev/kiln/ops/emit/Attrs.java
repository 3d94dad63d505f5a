package dev.kiln.ops.emit;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * An MXNet operator's attributes as the C API takes them: keys and values as strings, booleans as
 * {@code True} and {@code False}, tuples as {@code (5,5)}.
 */
public final class Attrs {
  private final String[] keys;
  private final String[] values;

  private Attrs(String[] keys, String[] values) {
    this.keys = keys;
    this.values = values;
  }

  /** {@code key, value, key, value, ...}; each value as MXNet spells it. */
  public static Attrs of(Object... keyValues) {
    int n = keyValues.length / 2;
    String[] keys = new String[n];
    String[] vals = new String[n];
    for (int i = 0; i < n; i++) {
      keys[i] = (String) keyValues[2 * i];
      Object v = keyValues[2 * i + 1];
      vals[i] = v instanceof Boolean b ? (b ? "True" : "False") : String.valueOf(v);
    }
    return new Attrs(keys, vals);
  }

  /** {@code (5,5)}, or {@code (5,)} for one value: an MXNet tuple attribute. */
  public static String tuple(int... values) {
    String inner =
        Arrays.stream(values).mapToObj(Integer::toString).collect(Collectors.joining(","));
    return "(" + inner + (values.length == 1 ? ",)" : ")");
  }

  /** The number of attributes. */
  public int size() {
    return keys.length;
  }

  /** The attributes' names, in order (a copy). */
  public String[] keys() {
    return keys.clone();
  }

  /** The attributes' values as MXNet spells them, in the order of {@link #keys()} (a copy). */
  public String[] values() {
    return values.clone();
  }
}
