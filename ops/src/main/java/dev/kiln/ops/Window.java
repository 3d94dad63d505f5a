package dev.kiln.ops;

import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.Requirement.Relation;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.SizeExpr;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The arithmetic of a window that slides over the spatial dimensions of a channels-first input
 * ({@code [N, C, spatial...]}), as MXNet's convolution and pooling shape functions do it, for any
 * number of spatial dimensions.
 */
final class Window {
  private Window() {}

  /**
   * The input's channels (dimension 1), which shape the weight: known at compile time, and divided
   * by {@code groups}, as {@code filters} must be too.
   */
  /** {@code values} as an immutable list. */
  static List<Integer> of(int... values) {
    return java.util.Arrays.stream(values).boxed().toList();
  }

  /**
   * {@code values} for each of the kernel's dimensions: as given, one value for all of them (as an
   * annotation's {@code stride = 2}), or {@code fill} for each when none were set.
   */
  static List<Integer> orFill(List<Integer> values, List<Integer> kernel, int fill) {
    return values.isEmpty()
        ? Collections.nCopies(kernel.size(), fill)
        : values.size() == 1 ? Collections.nCopies(kernel.size(), values.get(0)) : values;
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

  static int channels(ShapeSite site, String layer, int groups, int filters) {
    int c = site.shape().dim(1);
    if (c < 0) {
      throw site.fail(
          Message.UNKNOWN_CHANNELS,
          null,
          site.where(),
          layer,
          1,
          "its input channels",
          site.x().describe());
    }
    if (c % groups != 0 || filters % groups != 0) {
      List<Integer> common = new ArrayList<>();
      for (int g = 1; g <= Math.min(c, filters); g++) {
        if (c % g == 0 && filters % g == 0) {
          common.add(g);
        }
      }
      throw site.fail(
          Message.GROUPS_DIVIDE,
          "groups",
          site.prefix(),
          groups,
          c,
          site.x().describe(),
          filters,
          common.stream().map(String::valueOf).collect(Collectors.joining(", ")));
    }
    return c;
  }

  /** A window attribute as one value per spatial dimension: one value written stands for all. */
  static int[] expand(List<Integer> values, int spatial) {
    List<Integer> all = values.size() == 1 ? Collections.nCopies(spatial, values.get(0)) : values;
    return all.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Whether every value is {@code value}. */
  static boolean all(int[] values, int value) {
    for (int v : values) {
      if (v != value) {
        return false;
      }
    }
    return true;
  }

  /** The name of spatial dimension {@code axis} of {@code spatial}: height and width for 2. */
  static String axisName(int axis, int spatial) {
    List<String> names = List.of("depth", "height", "width");
    return names.get(names.size() - spatial + axis);
  }

  /**
   * The output size along spatial dimension {@code axis}: {@code (size + 2 pad - span) / stride +
   * 1} (integer division, MXNet's {@code valid} convention); unknown stays unknown. The window,
   * {@code span} wide ({@code how} says why), must fit the padded input.
   */
  static int out(ShapeSite site, int axis, int spatial, int span, String how, int stride, int pad) {
    int size = site.shape().dim(2 + axis);
    if (TShape.isFree(size)) {
      SizeExpr padded = site.shape().size(2 + axis).plus(2L * pad);
      site.require(
          padded,
          Relation.AT_LEAST,
          SizeExpr.constant(span),
          "its window ("
              + how
              + (how.contains("dilated") ? ", " + span + " wide" : "")
              + ") must fit the "
              + axisName(axis, spatial)
              + (pad == 0 ? "" : " padded by " + pad + " on each side"));
      return TShape.size(padded.minus(SizeExpr.constant(span)).div(stride).plus(1));
    }
    if (size < 0) {
      return TShape.BATCH;
    }
    int padded = size + 2 * pad;
    if (span > padded) {
      throw site.fail(
          Message.KERNEL_TOO_LARGE,
          "kernel",
          site.where(),
          span,
          axisName(axis, spatial),
          how,
          size,
          padded,
          site.x().describe());
    }
    return (padded - span) / stride + 1;
  }
}
