package dev.kiln.ops.rule;

import dev.kiln.names.AuxRole;
import dev.kiln.names.NodeNames;
import dev.kiln.names.ParamRole;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Where an op's shape rule runs: the node, its inputs with the nodes they came from, and the checks
 * and names several rules share. A broken rule throws a {@link RuleError}, which the checker
 * reports on the node.
 *
 * @param where how messages name the node, e.g. {@code Net.conv()}
 * @param node the node's name
 * @param annotationText the annotation that made it, as written, e.g. {@code @Conv2D(filters = 6,
 *     kernel = 5)}
 * @param parameterNames the names of the declaring method's parameters, one per input
 * @param names the MXNet name of the node's parameter or auxiliary state of a role: {@code
 *     <node>_<role>}, or an imported file's own name for it
 * @param in its inputs, in wiring order
 * @param needs takes what the rule needs of the free dimensions' sizes and could not settle on its
 *     own ({@link #require}); the processor proves, refutes or keeps each
 */
public record ShapeSite(
    String where,
    String node,
    String annotationText,
    List<String> parameterNames,
    UnaryOperator<String> names,
    List<Source> in,
    Consumer<Requirement> needs) {
  /** Copies the lists. */
  public ShapeSite {
    parameterNames = List.copyOf(parameterNames);
    in = List.copyOf(in);
  }

  /** A site whose inputs have no free dimensions, so that its rules need nothing of them. */
  public ShapeSite(
      String where,
      String node,
      String annotationText,
      List<String> parameterNames,
      UnaryOperator<String> names,
      List<Source> in) {
    this(
        where,
        node,
        annotationText,
        parameterNames,
        names,
        in,
        r -> {
          throw new IllegalStateException("a free dimension reached " + where + ": " + r);
        });
  }

  /** This site with its needs taken by {@code needs}. */
  public ShapeSite withNeeds(Consumer<Requirement> needs) {
    return new ShapeSite(where, node, annotationText, parameterNames, names, in, needs);
  }

  /**
   * Records that this node's rule needs {@code left relation right} of the free dimensions: nothing
   * when both sides are constants (the rule checked those itself) or written in {@code BATCH} or
   * {@code STEPS} (fixed at bind time, checked by MXNet as before).
   */
  public void require(SizeExpr left, Requirement.Relation relation, SizeExpr right, String why) {
    SizeExpr diff = left.minus(right);
    if (diff.isConstant() || diff.dims().contains("BATCH") || diff.dims().contains("STEPS")) {
      return;
    }
    needs.accept(Requirement.simplified(left, relation, right, node, annotationText + ": " + why));
  }

  /**
   * The error for axis {@code axis} of inputs {@code a} and {@code b}, whose sizes {@code rule}
   * needs equal and which are different expressions in the free dimensions ({@link
   * Message#FREE_DIM_UNEQUAL}), with the declaration that would make them equal.
   */
  public RuleError unequal(String layer, String rule, int axis, Source a, Source b) {
    SizeExpr p = a.shape().size(axis);
    SizeExpr q = b.shape().size(axis);
    SizeExpr diff = p.minus(q);
    // A declaration can make them equal only when the difference is one dimension, alone and
    // with coefficient 1, minus an expression in the others (not a constant): d = that expression.
    String dim = null;
    SizeExpr value = null;
    // A difference that vanishes when a dimension is declared a multiple (H - 2 * (H / 2), pooled
    // then upsampled; H / 2 - (H + 1) / 2, pooled against a strided convolution) asks for that
    // declaration; the other axes that need one are named too, so that one fix compiles (a U-Net
    // pools H and W alike).
    Multiple m = multipleThatEquates(diff);
    if (m != null) {
      List<Multiple> all = new ArrayList<>(List.of(m));
      List<String> also = new ArrayList<>();
      TShape sa = a.shape();
      TShape sb = b.shape();
      for (int i = 0; i < Math.min(sa.rank(), sb.rank()); i++) {
        if (i == axis || !TShape.isFree(sa.dim(i)) && !TShape.isFree(sb.dim(i))) {
          continue;
        }
        Multiple o = multipleThatEquates(sa.size(i).minus(sb.size(i)));
        if (o != null && all.stream().noneMatch(x -> x.dim().equals(o.dim()))) {
          all.add(o);
          also.add("axis " + i + " where " + o.dim() + " % " + o.k() + " is 0");
        }
      }
      boolean oneK = all.stream().allMatch(x -> x.k() == m.k());
      String declare =
          oneK
              ? String.join(" and ", all.stream().map(Multiple::dim).toList())
                  + (all.size() == 1 ? " a multiple of " : " multiples of ")
                  + m.k()
                  + " (multipleOf = "
                  + m.k()
                  + (all.size() == 1 ? " in its @FreeDim)" : " in their @FreeDim)")
              : String.join(
                      " and ", all.stream().map(x -> x.dim() + " a multiple of " + x.k()).toList())
                  + " (multipleOf in their @FreeDim)";
      String which =
          "differ for some sizes but are equal where "
              + m.dim()
              + " % "
              + m.k()
              + " is 0"
              + (also.isEmpty() ? "" : " (and " + String.join(", ", also) + ")")
              + "; declare "
              + declare
              + ", or crop or pad one of them";
      return fail(
          Message.FREE_DIM_UNEQUAL,
          null,
          where,
          layer,
          rule,
          axis,
          p,
          a.node(),
          q,
          b.node(),
          which);
    }
    for (String d : diff.dims()) {
      for (int sign : new int[] {1, -1}) {
        SizeExpr rest = diff.minus(diff.self(d).times(sign)).times(-sign);
        if (!rest.dims().contains(d) && !rest.isConstant()) {
          dim = d;
          value = rest;
          break;
        }
      }
      if (dim != null) {
        break;
      }
    }
    String which =
        diff.isConstant()
            ? "differ by "
                + Math.abs(diff.constant())
                + " for every size; crop or pad one of them, or change the layers that make them"
            : dim != null
                ? "differ for some sizes of the free dimensions; if they are always equal, declare "
                    + "it (e.g. @FreeDim(equals = \""
                    + value
                    + "\") on "
                    + dim
                    + "), else change the layers that make them"
                : "differ for some sizes of the free dimensions, and no @FreeDim declaration can "
                    + "make them equal; change the layers that make them so that both branches "
                    + "scale the same way (pool, stride or upsample both alike)";
    return fail(
        Message.FREE_DIM_UNEQUAL, null, where, layer, rule, axis, p, a.node(), q, b.node(), which);
  }

  /** Dimension {@code dim} declared a multiple of {@code k}. */
  private record Multiple(String dim, long k) {}

  /**
   * The least declaration {@code multipleOf = k} (2 to 64, with what the dimension is already
   * declared a multiple of) of one dimension that makes {@code diff} zero, or null when none does.
   */
  private static Multiple multipleThatEquates(SizeExpr diff) {
    for (String d : diff.dims()) {
      long unit = diff.unitOf(d);
      for (long k = 2; k <= 64; k++) {
        long lcm = unit / SizeExpr.gcd(unit, k) * k;
        if (lcm == unit) {
          continue;
        }
        SizeExpr declared =
            diff.substitute(n -> n.equals(d) ? SizeExpr.multiple(d, lcm) : diff.self(n));
        if (declared.equals(SizeExpr.constant(0))) {
          return new Multiple(d, lcm);
        }
      }
    }
    return null;
  }

  /**
   * Whether sizes {@code a} and {@code b} are equal for every size of the free dimensions: true
   * when they are the same expression; false when they differ and one of them is written in a free
   * dimension (the caller reports {@link Message#FREE_DIM_UNEQUAL}); for constants, {@code BATCH}
   * and {@code STEPS}, the caller's own comparison stands ({@code null}).
   */
  public static Boolean sameFree(int a, int b) {
    if (a == b) {
      return true;
    }
    return TShape.isFree(a) || TShape.isFree(b) ? Boolean.FALSE : null;
  }

  /** A site whose parameters are named {@code <node>_<role>}. */
  public ShapeSite(String where, String node, String annotationText, List<Source> in) {
    this(
        where,
        node,
        annotationText,
        in.stream().map(Source::node).toList(),
        role -> NodeNames.of(node, role),
        in);
  }

  /** The first (for most ops, the only) input. */
  public Source x() {
    return in.get(0);
  }

  /** The first input's shape. */
  public TShape shape() {
    return x().shape();
  }

  /** {@code Net.conv() @Conv2D(filters = 6, kernel = 5)}: how layer-library messages start. */
  public String prefix() {
    return where + " " + annotationText;
  }

  /** Fails with {@code message} and {@code args}, underlining {@code attribute} (or nothing). */
  public RuleError fail(Message message, String attribute, Object... args) {
    return new RuleError(message, attribute, args);
  }

  /** Parameter {@code <node>_<role>} of this node. */
  public ParamInfo param(ParamRole role, TShape shape) {
    return new ParamInfo(names.apply(role.role()), node, shape);
  }

  /** Parameter {@code <node>_<role>} of this node, for a custom layer's own role. */
  public ParamInfo param(String role, TShape shape) {
    return new ParamInfo(NodeNames.of(node, role), node, shape);
  }

  /** Auxiliary state {@code <node>_<role>} of this node. */
  public ParamInfo aux(AuxRole role, TShape shape) {
    return new ParamInfo(names.apply(role.role()), node, shape);
  }

  /** Checks {@code axis} against {@code s}'s rank and returns it made non-negative. */
  public int axis(int axis, Source s) {
    int rank = s.shape().rank();
    if (axis < -rank || axis >= rank) {
      throw fail(Message.BAD_AXIS, "axis", where, axis, s.describe(), rank, -rank, rank - 1);
    }
    return axis < 0 ? axis + rank : axis;
  }

  /**
   * The size of the first input's axis {@code axis}, which shapes {@code layer}'s parameters: the
   * axis must exist and its size be known.
   */
  public int channels(String layer, int axis) {
    int a = axis(axis, x());
    int c = shape().dim(a);
    if (c < 0) {
      throw fail(
          Message.UNKNOWN_CHANNELS, "axis", where, layer, a, "the normalised axis", x().describe());
    }
    return c;
  }

  /**
   * The first input must be rank {@code rank}, laid out as {@code layout} (e.g. {@code [N, C, H,
   * W]}); a rank-2 input of square rows gets a hint that reshapes it into images.
   */
  public void requireRank(String layer, int rank, String layout) {
    TShape s = shape();
    if (s.rank() == rank) {
      return;
    }
    String hint = "";
    if (rank == 4 && s.rank() == 2 && s.dim(1) > 0) {
      int side = (int) Math.round(Math.sqrt(s.dim(1)));
      hint =
          side * side == s.dim(1)
              ? "; to read each row as a "
                  + side
                  + "x"
                  + side
                  + " image, reshape it first: "
                  + "@Reshape(shape = {BATCH, 1, "
                  + side
                  + ", "
                  + side
                  + "})"
              : "; reshape it first, e.g. @Reshape(shape = {BATCH, C, H, W})";
    }
    throw fail(
        Message.WRONG_RANK,
        null,
        where,
        layer,
        Integer.toString(rank),
        layout,
        x().describe(),
        hint);
  }
}
