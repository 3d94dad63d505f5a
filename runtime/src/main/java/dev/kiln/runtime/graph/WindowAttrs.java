package dev.kiln.runtime.graph;

import dev.kiln.ops.emit.Attrs;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The window attributes of the convolution and pooling specs: one value per spatial dimension, in
 * the order MXNet's tuples take them ({@code (height, width)}), with the defaults of those not set.
 */
final class WindowAttrs {
  private WindowAttrs() {}

  /** {@code values} as an immutable list. */
  static List<Integer> of(int... values) {
    return Arrays.stream(values).boxed().toList();
  }

  /** {@code values}, or {@code fill} for each of the kernel's dimensions when none were set. */
  static List<Integer> orFill(List<Integer> values, List<Integer> kernel, int fill) {
    return values.isEmpty() ? Collections.nCopies(kernel.size(), fill) : values;
  }

  /**
   * {@code values} as an MXNet tuple, refusing a length other than the kernel's: the attribute
   * {@code name} of a layer whose kernel has {@code kernel.size()} dimensions.
   */
  static String tuple(String name, List<Integer> values, List<Integer> kernel, int fill) {
    List<Integer> all = orFill(values, kernel, fill);
    if (all.size() != kernel.size()) {
      throw new IllegalArgumentException(
          name
              + " has "
              + all.size()
              + " values, but the kernel "
              + kernel
              + " has "
              + kernel.size()
              + " dimensions");
    }
    return Attrs.tuple(all.stream().mapToInt(Integer::intValue).toArray());
  }
}
