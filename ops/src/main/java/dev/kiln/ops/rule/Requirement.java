package dev.kiln.ops.rule;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a model needs of its free dimensions' sizes: {@code H >= 12}, {@code H % 8 == 0}, {@code H
 * == W}, {@code H / 2 - 6 >= 0}. A declared constraint ({@link dev.kiln.annotations.FreeDim}) or a
 * layer's rule that the compiler could not prove for every size becomes one; the generated model
 * lists them and checks each before it binds an executor for a new shape.
 *
 * @param left the left side
 * @param relation how the sides compare
 * @param right the right side
 * @param node the node whose rule needs it, or {@code ""} for a declared constraint
 * @param why the rule in words, e.g. {@code @Conv2D(kernel = 5): the kernel, 5 wide, must fit the
 *     height}, or the declaration, e.g. {@code @FreeDim(min = 12) int H}
 */
public record Requirement(
    SizeExpr left, Relation relation, SizeExpr right, String node, String why) {
  /** How the two sides of a requirement compare. */
  public enum Relation {
    /** {@code left >= right}. */
    AT_LEAST(">="),
    /** {@code left <= right}. */
    AT_MOST("<="),
    /** {@code left == right}. */
    EQUALS("==");

    private final String symbol;

    Relation(String symbol) {
      this.symbol = symbol;
    }

    /** {@code >=}, {@code <=} or {@code ==}. */
    public String symbol() {
      return symbol;
    }
  }

  /**
   * Reads {@code text}, as {@link #text()} writes it ({@code H / 2 - 6 >= 0}), the requirement of
   * {@code node} for reason {@code why}.
   */
  public static Requirement of(String text, String node, String why) {
    for (Relation r : Relation.values()) {
      int at = text.indexOf(r.symbol);
      if (at > 0) {
        return new Requirement(
            SizeExpr.parse(text.substring(0, at)),
            r,
            SizeExpr.parse(text.substring(at + r.symbol.length())),
            node,
            why);
      }
    }
    throw new IllegalArgumentException(
        "a requirement compares two sizes with >=, <= or ==, got \"" + text + "\"");
  }

  /** {@code H / 8} as {@link SizeExpr#toString} writes it. */
  private static final Pattern DIM_QUOTIENT = Pattern.compile("([A-Za-z_$][\\w$]*) / (\\d+)");

  /** {@code H % 8} as {@link SizeExpr#toString} writes it: {@code -8 * (H / 8) + H}. */
  private static final Pattern DIM_REMAINDER =
      Pattern.compile("-(\\d+) \\* \\(([A-Za-z_$][\\w$]*) / \\1\\) \\+ \\2");

  /**
   * {@code left} {@code relation} {@code right} written as simply as it goes: one dimension times a
   * positive number against a constant is the dimension alone ({@code H - 4 >= 1} is {@code H >=
   * 5}); anything else is everything else on the left against the constant term.
   */
  public static Requirement simplified(
      SizeExpr left, Relation relation, SizeExpr right, String node, String why) {
    SizeExpr diff = left.minus(right);
    long k = diff.constantTerm();
    SizeExpr variable = diff.plus(-k);
    String dim = variable.dimName();
    if (dim == null && variable.dims().size() == 1) {
      String only = variable.dims().iterator().next();
      // c of c * H, H counted in its units when it is declared a multiple (H = u * (H / u)).
      long unit = variable.unitOf(only);
      long c = variable.substitute(d -> SizeExpr.constant(unit)).constant() / unit;
      if (c > 0 && variable.equals(variable.self(only).times(c))) {
        long bound =
            switch (relation) {
              case AT_LEAST -> Math.floorDiv(-k + c - 1, c);
              case AT_MOST -> Math.floorDiv(-k, c);
              case EQUALS -> -k % c == 0 ? -k / c : Long.MIN_VALUE;
            };
        if (bound != Long.MIN_VALUE) {
          return new Requirement(SizeExpr.dim(only), relation, SizeExpr.constant(bound), node, why);
        }
      }
    }
    Matcher q = DIM_QUOTIENT.matcher(variable.toString());
    if (q.matches() && relation != Relation.EQUALS) {
      // floor(H / d) >= c exactly when H >= d c; floor(H / d) <= c when H <= d c + d - 1.
      long d = Long.parseLong(q.group(2));
      long bound = relation == Relation.AT_LEAST ? -k * d : -k * d + d - 1;
      return new Requirement(
          SizeExpr.dim(q.group(1)), relation, SizeExpr.constant(bound), node, why);
    }
    return new Requirement(variable, relation, SizeExpr.constant(-k), node, why);
  }

  /**
   * The dimension this bounds from below ({@code H >= 12}: {@code H}), or null when it is not a
   * single dimension at least a constant.
   */
  public String lowerBoundOf() {
    return relation == Relation.AT_LEAST && right.isConstant() ? left.dimName() : null;
  }

  /**
   * {@code H >= 12}, {@code H % 8 == 0}: how generated code and messages write it ({@link #of}
   * reads it back).
   */
  public String text() {
    Matcher m = DIM_REMAINDER.matcher(left.toString());
    if (relation == Relation.EQUALS && m.matches() && right.equals(SizeExpr.constant(0))) {
      return m.group(2) + " % " + m.group(1) + " == 0"; // H - 8 * (H / 8) == 0
    }
    return left + " " + relation.symbol + " " + right;
  }

  /** The left side as {@link #text()} writes it: {@code H % 8}, {@code H / 2 - 6}. */
  public String leftText() {
    String t = text();
    return t.substring(0, t.lastIndexOf(" " + relation.symbol + " "));
  }

  /** Whether it holds for the dimensions' {@code sizes}. */
  public boolean holds(Map<String, Long> sizes) {
    long l = left.eval(sizes);
    long r = right.eval(sizes);
    return switch (relation) {
      case AT_LEAST -> l >= r;
      case AT_MOST -> l <= r;
      case EQUALS -> l == r;
    };
  }

  @Override
  public String toString() {
    return text() + (node.isEmpty() ? "" : " (" + node + ")") + ": " + why;
  }
}
