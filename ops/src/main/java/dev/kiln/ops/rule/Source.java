package dev.kiln.ops.rule;

import java.util.List;

/**
 * One input of a node as the shape rules see it: its shape and the node it came from, so that
 * messages can show where each tensor came from.
 *
 * @param shape the input's shape
 * @param node the name of the node that made it
 * @param annotationText that node's annotation as written, e.g. {@code @Dense(units = 32)}
 */
public record Source(TShape shape, String node, String annotationText) {
  /** {@code [BATCH, 32] from inner (@Dense(units = 32))}. */
  public String describe() {
    return shape + " from " + node + " (" + annotationText + ")";
  }

  /** {@code a and b}, or {@code a, b, c}: several inputs described. */
  public static String describeAll(List<Source> in) {
    List<String> parts = in.stream().map(Source::describe).toList();
    if (parts.size() == 2) {
      return parts.get(0) + " and " + parts.get(1);
    }
    return String.join(", ", parts);
  }
}
