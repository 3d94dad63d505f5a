package dev.kiln.processor.check;

import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.Requirement;
import dev.kiln.ops.rule.Requirement.Relation;
import dev.kiln.ops.rule.SizeExpr;
import dev.kiln.ops.rule.Source;
import dev.kiln.ops.rule.TShape;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.FreeDimSpec;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.model.NodeSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.VariableElement;
import javax.lang.model.util.ElementFilter;

/**
 * A model's free dimensions while it is checked: the placeholders of its inputs' shapes read as the
 * dimensions they stand for, nodes whose ops cannot take them refused, and what the layers' rules
 * need of the sizes proved from the declarations, refuted, or kept as the model's requirements.
 */
final class FreeDims {
  private final ModelSpec spec;
  private final Report report;
  private final Map<Integer, FreeDimSpec> byPlaceholder = new HashMap<>();
  private final Map<String, FreeDimSpec> byName = new LinkedHashMap<>();
  private final Map<String, Requirement> kept = new LinkedHashMap<>();
  private final Set<String> used = new LinkedHashSet<>();

  /** Lower bounds that kept requirements put on dimensions beyond their declarations. */
  private final Map<String, Long> lower = new HashMap<>();

  FreeDims(ModelSpec spec, Report report) {
    this.spec = spec;
    this.report = report;
    for (FreeDimSpec d : spec.dims()) {
      byPlaceholder.put(d.placeholder(), d);
      byName.put(d.name(), d);
    }
  }

  /**
   * The input {@code n}'s inferred shape with each placeholder read as its dimension; null when one
   * stands for no declared dimension (reported).
   */
  Inferred declared(NodeSpec n, Inferred r) {
    TShape s = r.shape();
    if (s.dims().stream().noneMatch(TShape::isPlaceholder)) {
      return r;
    }
    List<Integer> dims = new ArrayList<>();
    for (int i = 0; i < s.rank(); i++) {
      int d = s.dim(i);
      if (!TShape.isPlaceholder(d)) {
        dims.add(d);
        continue;
      }
      FreeDimSpec f = byPlaceholder.get(d);
      if (f == null) {
        report.add(
            Message.FREE_DIM_UNDECLARED,
            n.method(),
            n.mirror(),
            "shape",
            n.name(),
            i,
            d,
            spec.simpleName(),
            constantOf(d));
        return null;
      }
      used.add(f.name());
      dims.add(TShape.size(f.expression()));
    }
    return new Inferred(new TShape(dims), r.params(), r.aux());
  }

  /** The name of the model's constant of value {@code d}, or {@code H} when it has none. */
  private String constantOf(int d) {
    if (spec.element() != null) {
      for (VariableElement f : ElementFilter.fieldsIn(spec.element().getEnclosedElements())) {
        if (Integer.valueOf(d).equals(f.getConstantValue())) {
          return f.getSimpleName().toString();
        }
      }
    }
    return "H";
  }

  /**
   * Whether node {@code n}'s op takes its inputs {@code in}: any op does when they have no free
   * dimension; else only one whose rules know them ({@code FreeDimUnsupported}).
   */
  boolean accepts(NodeSpec n, String where, List<Source> in) {
    if (n.layer().takesFreeDims()) {
      return true;
    }
    for (Source s : in) {
      if (s.shape().hasFree()) {
        report.add(
            Message.FREE_DIM_UNSUPPORTED,
            n.method(),
            n.mirror(),
            null,
            where,
            "@" + n.layer().annotation(),
            s.shape(),
            s.node());
        return false;
      }
    }
    return true;
  }

  /**
   * Settles each of node {@code n}'s {@code needs}: proved for every size the declarations allow
   * (dropped), met by none ({@code FreeDimImpossible}, and false), or else kept.
   */
  boolean keep(NodeSpec n, List<Requirement> needs) {
    for (Requirement r : needs) {
      long[] b = r.left().minus(r.right()).bounds(this::range);
      boolean proved =
          switch (r.relation()) {
            case AT_LEAST -> b[0] >= 0;
            case AT_MOST -> b[1] <= 0;
            case EQUALS -> b[0] == 0 && b[1] == 0;
          };
      boolean impossible =
          switch (r.relation()) {
            case AT_LEAST -> b[1] < 0;
            case AT_MOST -> b[0] > 0;
            case EQUALS -> b[0] > 0 || b[1] < 0;
          };
      if (impossible) {
        report.add(
            Message.FREE_DIM_IMPOSSIBLE,
            n.method(),
            n.mirror(),
            null,
            n.declaration(spec.simpleName()),
            r.text(),
            r.why(),
            bounds(r));
        return false;
      }
      if (!proved) {
        String dim = r.lowerBoundOf();
        if (dim != null) {
          // H >= n replaces a weaker H >= m kept before, and bounds H from now on.
          kept.values().removeIf(o -> dim.equals(o.lowerBoundOf()));
          lower.put(dim, r.right().constant());
        }
        kept.putIfAbsent(r.text(), r);
      }
    }
    return true;
  }

  /** The declared range of the dimensions {@code r} is written in: {@code 1 <= H <= 4}. */
  private String bounds(Requirement r) {
    List<String> out = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>(r.left().dims());
    names.addAll(r.right().dims());
    for (String name : names) {
      long[] range = range(name);
      out.add(
          range[1] == Long.MAX_VALUE
              ? name + " >= " + range[0]
              : range[0] + " <= " + name + " <= " + range[1]);
    }
    return String.join(", ", out);
  }

  /** The sizes dimension {@code name} may take, as declared: {@code [min, max]}. */
  private long[] range(String name) {
    FreeDimSpec d = byName.get(name);
    if (d == null) {
      return new long[] {lower.getOrDefault(name, 1L), Long.MAX_VALUE};
    }
    long min = ceilTo(Math.max(d.min(), lower.getOrDefault(name, 1L)), d.multipleOf());
    return new long[] {min, d.max() == Integer.MAX_VALUE ? Long.MAX_VALUE : d.max()};
  }

  private static long ceilTo(long v, long k) {
    return Math.floorDiv(v + k - 1, k) * k;
  }

  /**
   * Whether every declared dimension is read by some input ({@code FreeDimUnused} for each that is
   * not: no call could give its size).
   */
  boolean checkUsed() {
    boolean ok = true;
    for (FreeDimSpec d : spec.dims()) {
      if (!used.contains(d.name()) && !report.hasErrors()) {
        report.add(
            Message.FREE_DIM_UNUSED,
            d.field(),
            d.mirror(),
            null,
            spec.simpleName() + "." + d.name(),
            d.name());
        ok = false;
      }
    }
    return ok;
  }

  /**
   * The model's requirements: each dimension's declaration ({@code H >= 12}, {@code H <= 64},
   * {@code H % 8 == 0}, {@code H == W}), then the layers' rules kept, in node order.
   */
  List<Requirement> requirements() {
    List<Requirement> out = new ArrayList<>();
    for (FreeDimSpec d : spec.dims()) {
      SizeExpr self = SizeExpr.dim(d.name());
      String why = d.declaration();
      if (d.equals() != null) {
        out.add(new Requirement(self, Relation.EQUALS, d.equals(), "", why));
      }
      if (d.min() > 1) {
        out.add(new Requirement(self, Relation.AT_LEAST, SizeExpr.constant(d.min()), "", why));
      }
      if (d.max() != Integer.MAX_VALUE) {
        out.add(new Requirement(self, Relation.AT_MOST, SizeExpr.constant(d.max()), "", why));
      }
      if (d.multipleOf() > 1) {
        out.add(
            new Requirement(
                self.mod(d.multipleOf()), Relation.EQUALS, SizeExpr.constant(0), "", why));
      }
    }
    out.addAll(kept.values());
    return out;
  }
}
