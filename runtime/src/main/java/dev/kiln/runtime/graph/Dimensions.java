package dev.kiln.runtime.graph;

import dev.kiln.ops.rule.Requirement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A model's free dimensions at run time: each declared dimension's name and placeholder, and what
 * the model needs of their sizes ({@link Requirement}s: the declared constraints, then the layers'
 * rules the compiler could not prove for every size). Before an executor is bound for a new set of
 * input shapes, {@link #sizes} reads each dimension's size from the inputs, checks that every input
 * agrees on it and that every requirement holds, so that a shape the model cannot take is an {@link
 * IllegalArgumentException} naming the dimension, the rule and the node, not an MXNet error deep in
 * binding. Immutable; generated code makes one per model ({@code Graph.DIMENSIONS}).
 *
 * @param dims the declared dimensions, in declaration order
 * @param requirements what the model needs of their sizes
 */
public record Dimensions(List<Dim> dims, List<Requirement> requirements) {
  /** A model without free dimensions. */
  public static final Dimensions NONE = new Dimensions(List.of(), List.of());

  /**
   * One free dimension.
   *
   * @param name its name, {@code H}
   * @param placeholder the value that stands for it in declared shapes, {@code -10}
   */
  public record Dim(String name, int placeholder) {}

  /** Copies the lists. */
  public Dimensions {
    dims = List.copyOf(dims);
    requirements = List.copyOf(requirements);
  }

  /** Dimensions {@code dims}, needing nothing yet ({@link #require}). */
  public static Dimensions of(Dim... dims) {
    return new Dimensions(List.of(dims), List.of());
  }

  /**
   * These dimensions also needing {@code text} ({@code H / 2 - 6 >= 0}) for node {@code node}
   * ({@code ""} for a declared constraint), because of {@code why}.
   */
  public Dimensions require(String text, String node, String why) {
    List<Requirement> r = new ArrayList<>(requirements);
    r.add(Requirement.of(text, node, why));
    return new Dimensions(dims, r);
  }

  /** Whether the model declares no free dimension. */
  public boolean isEmpty() {
    return dims.isEmpty();
  }

  /** The name of placeholder {@code d}, or null when it is none. */
  public String nameOf(int d) {
    for (Dim x : dims) {
      if (x.placeholder == d) {
        return x.name;
      }
    }
    return null;
  }

  /**
   * The size of each dimension in a call of {@code model} with inputs {@code specs} of shapes
   * {@code actual} (complete, one per input, each accepted by its declared shape).
   *
   * @throws IllegalArgumentException when two inputs give a dimension different sizes, or a
   *     requirement fails: naming the dimension, the requirement, the node and its rule
   */
  public Map<String, Long> sizes(String model, List<InputSpec> specs, List<Shape> actual) {
    Map<String, Long> sizes = new LinkedHashMap<>();
    Map<String, String> from = new LinkedHashMap<>();
    for (int i = 0; i < specs.size(); i++) {
      int[] declared = specs.get(i).shape().dims();
      for (int a = 0; a < declared.length; a++) {
        String name = nameOf(declared[a]);
        if (name == null) {
          continue;
        }
        long size = actual.get(i).dim(a);
        String where = "axis " + a + " of input '" + specs.get(i).name() + "' " + actual.get(i);
        Long before = sizes.putIfAbsent(name, size);
        if (before != null && before != size) {
          throw new IllegalArgumentException(
              model
                  + ": free dimension "
                  + name
                  + " is "
                  + before
                  + " in "
                  + from.get(name)
                  + " but "
                  + size
                  + " in "
                  + where
                  + "; every use of "
                  + name
                  + " in one call has the same size");
        }
        from.putIfAbsent(name, where);
      }
    }
    for (Requirement r : requirements) {
      if (!r.holds(sizes)) {
        throw new IllegalArgumentException(
            model
                + ": "
                + describe(sizes)
                + " breaks "
                + r.text()
                + (r.node().isEmpty() ? ", declared by " : ", which node " + r.node() + " needs: ")
                + r.why()
                + " (at "
                + r.leftText()
                + " = "
                + r.left().eval(sizes)
                + (r.right().isConstant() ? "" : ", " + r.right() + " = " + r.right().eval(sizes))
                + ")");
      }
    }
    return sizes;
  }

  /**
   * The least sizes that meet every requirement, for shape inference while the graph is built:
   * every dimension the same size {@code s}, from 1 up, except one that a requirement defines
   * ({@code H == W}, {@code D == 64 * HEADS}), which takes its definition's value.
   *
   * @throws IllegalStateException when no size up to 4096 meets them
   */
  public Map<String, Long> probe() {
    return probe(1);
  }

  /**
   * As {@link #probe()}, with every dimension at least {@code least} (but one a requirement
   * defines): the least common size from {@code least} to {@code least + 4095} that meets them.
   *
   * @throws IllegalStateException when none does
   */
  public Map<String, Long> probe(long least) {
    Map<String, Long> sizes = new LinkedHashMap<>();
    if (dims.isEmpty()) {
      return sizes;
    }
    for (long s = least; s < least + 4096; s++) {
      sizes.clear();
      for (Dim d : dims) {
        sizes.put(d.name, s);
      }
      for (Requirement r : requirements) {
        String defined = r.left().dimName();
        if (r.relation() == Requirement.Relation.EQUALS && defined != null && r.node().isEmpty()) {
          sizes.put(defined, r.right().eval(sizes));
        }
      }
      if (requirements.stream().allMatch(r -> r.holds(sizes))) {
        return sizes;
      }
    }
    throw new IllegalStateException(
        "no sizes from "
            + least
            + " to "
            + (least + 4095)
            + " meet the free dimensions' requirements "
            + requirements);
  }

  /** {@code H = 10, W = 12}. */
  private static String describe(Map<String, Long> sizes) {
    List<String> parts = new ArrayList<>();
    sizes.forEach((k, v) -> parts.add(k + " = " + v));
    return String.join(", ", parts);
  }

  /**
   * {@code declared} with every dimension that is a declared placeholder set to its size in {@code
   * sizes}, and {@code BATCH} to {@code batch}.
   *
   * @throws IllegalArgumentException naming a dimension {@code sizes} lacks
   */
  public Shape fix(Shape declared, Map<String, Long> sizes, int batch) {
    int[] d = declared.dims();
    for (int i = 0; i < d.length; i++) {
      String name = nameOf(d[i]);
      if (name != null) {
        Long v = sizes.get(name);
        if (v == null) {
          throw new IllegalArgumentException(
              "no size for free dimension " + name + " of " + declared + "; sizes given: " + sizes);
        }
        d[i] = Math.toIntExact(v);
      } else if (d[i] == Shape.BATCH) {
        d[i] = batch;
      }
    }
    return Shape.of(d);
  }
}
