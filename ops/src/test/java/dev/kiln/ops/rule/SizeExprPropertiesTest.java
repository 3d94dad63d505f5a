package dev.kiln.ops.rule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link SizeExpr}'s algebra checked on random expressions over {@code H} and {@code W} at random
 * positive sizes: every expression is built from a random tree whose value plain Java computes
 * ({@link Math#floorDiv}, {@link Math#floorMod}), so evaluation, the operators, printing and
 * reading, canonical equality and interval bounds are each checked against an independent
 * reference.
 */
class SizeExprPropertiesTest {
  /** An expression tree with its own evaluator: the reference. */
  sealed interface Tree permits Leaf, Multiple, Const, Bin, Quot {
    long value(Map<String, Long> sizes);

    SizeExpr expr();
  }

  record Leaf(String name) implements Tree {
    @Override
    public long value(Map<String, Long> sizes) {
      return sizes.get(name);
    }

    @Override
    public SizeExpr expr() {
      return SizeExpr.dim(name);
    }
  }

  /** A dimension declared a multiple of {@code unit}: the sizes drawn for it are multiples. */
  record Multiple(String name, long unit) implements Tree {
    @Override
    public long value(Map<String, Long> sizes) {
      return sizes.get(name);
    }

    @Override
    public SizeExpr expr() {
      return SizeExpr.multiple(name, unit);
    }
  }

  record Const(long c) implements Tree {
    @Override
    public long value(Map<String, Long> sizes) {
      return c;
    }

    @Override
    public SizeExpr expr() {
      return SizeExpr.constant(c);
    }
  }

  /** {@code a op b} for {@code +}, {@code -} and {@code *}. */
  record Bin(char op, Tree a, Tree b) implements Tree {
    @Override
    public long value(Map<String, Long> sizes) {
      long x = a.value(sizes);
      long y = b.value(sizes);
      return switch (op) {
        case '+' -> Math.addExact(x, y);
        case '-' -> Math.subtractExact(x, y);
        default -> Math.multiplyExact(x, y);
      };
    }

    @Override
    public SizeExpr expr() {
      return switch (op) {
        case '+' -> a.expr().plus(b.expr());
        case '-' -> a.expr().minus(b.expr());
        default -> a.expr().times(b.expr());
      };
    }
  }

  /** {@code floor(a / k)} ({@code op = '/'}) or its remainder ({@code op = '%'}). */
  record Quot(char op, Tree a, long k) implements Tree {
    @Override
    public long value(Map<String, Long> sizes) {
      long x = a.value(sizes);
      return op == '/' ? Math.floorDiv(x, k) : Math.floorMod(x, k);
    }

    @Override
    public SizeExpr expr() {
      return op == '/' ? a.expr().div(k) : a.expr().mod(k);
    }
  }

  private static final List<String> DIMS = List.of("H", "W");

  /** Trees of depth at most {@code depth}: products stay within a long at the sizes drawn. */
  static Arbitrary<Tree> trees(int depth) {
    return trees(depth, Arbitraries.of(DIMS).map(Leaf::new));
  }

  /** Trees whose dimensions are {@code dims}. */
  static Arbitrary<Tree> trees(int depth, Arbitrary<Tree> dims) {
    Arbitrary<Tree> leaf =
        Arbitraries.oneOf(dims, Arbitraries.longs().between(-12, 12).map(Const::new));
    if (depth == 0) {
      return leaf;
    }
    Arbitrary<Tree> sub = Arbitraries.lazy(() -> trees(depth - 1, dims));
    Arbitrary<Tree> bin = Combinators.combine(Arbitraries.of('+', '-', '*'), sub, sub).as(Bin::new);
    Arbitrary<Tree> quot =
        Combinators.combine(Arbitraries.of('/', '%'), sub, Arbitraries.longs().between(1, 9))
            .as(Quot::new);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(2, leaf),
        net.jqwik.api.Tuple.of(3, bin),
        net.jqwik.api.Tuple.of(2, quot));
  }

  @Provide
  Arbitrary<Tree> tree() {
    return trees(3);
  }

  @Provide
  Arbitrary<Map<String, Long>> sizes() {
    Arbitrary<Long> size = Arbitraries.longs().between(1, 300);
    return Combinators.combine(size, size).as((h, w) -> Map.of("H", h, "W", w));
  }

  /**
   * Evaluating the expression a tree builds gives the tree's value: each of {@code plus}, {@code
   * minus}, {@code times}, {@code div} (floor) and {@code mod} commutes with evaluation, at every
   * level of the tree.
   */
  @Property(tries = 2000)
  void evaluationCommutesWithEveryOperator(
      @ForAll("tree") Tree t, @ForAll("sizes") Map<String, Long> sizes) {
    assertEquals(t.value(sizes), t.expr().eval(sizes), () -> t + " = " + t.expr() + " at " + sizes);
  }

  /** The same, operator by operator, over two expressions and a positive divisor. */
  @Property(tries = 1000)
  void eachOperatorEvaluatesAsIntegers(
      @ForAll("tree") Tree a,
      @ForAll("tree") Tree b,
      @ForAll @IntRange(min = 1, max = 12) int k,
      @ForAll("sizes") Map<String, Long> sizes) {
    SizeExpr x = a.expr();
    SizeExpr y = b.expr();
    long vx = x.eval(sizes);
    long vy = y.eval(sizes);
    assertEquals(vx + vy, x.plus(y).eval(sizes));
    assertEquals(vx - vy, x.minus(y).eval(sizes));
    assertEquals(vx * vy, x.times(y).eval(sizes));
    assertEquals(vx * k, x.times(k).eval(sizes));
    assertEquals(Math.floorDiv(vx, k), x.div(k).eval(sizes), () -> "(" + x + ") / " + k);
    assertEquals(Math.floorMod(vx, k), x.mod(k).eval(sizes), () -> "(" + x + ") % " + k);
  }

  /** Reading what {@code toString} writes gives back an equal expression, with the same text. */
  @Property(tries = 2000)
  void parseReadsWhatToStringWrites(@ForAll("tree") Tree t) {
    SizeExpr e = t.expr();
    SizeExpr back = SizeExpr.parse(e.toString());
    assertEquals(e, back);
    assertEquals(e.hashCode(), back.hashCode());
    assertEquals(e.toString(), back.toString());
  }

  /**
   * The case the round trip found: a negated quotient leading the sum was written {@code -H / 2},
   * which reads (in Java and in {@link SizeExpr#parse}) as {@code (-H) / 2}, another value for odd
   * {@code H}.
   */
  @Example
  void aLeadingNegatedQuotientKeepsItsParentheses() {
    SizeExpr e = SizeExpr.dim("H").div(2).times(-1);
    assertEquals("-(H / 2)", e.toString());
    assertEquals(e, SizeExpr.parse(e.toString()));
    assertEquals(-2, SizeExpr.parse(e.toString()).eval(Map.of("H", 5L)));
  }

  /**
   * The cases random seeds found: a quotient nested in a remainder was folded only when it was the
   * whole numerator's, and a common factor of divisor and coefficients stayed, so one value had two
   * forms and reading the text back gave the other.
   */
  @Example
  void nestedQuotientsAndCommonFactorsHaveOneForm() {
    SizeExpr h = SizeExpr.dim("H");
    SizeExpr threeHalves = h.div(2).times(3).plus(h).div(2).minus(h.div(2).times(2));
    assertEquals(threeHalves, SizeExpr.parse(threeHalves.toString()));
    assertEquals("3 * H / 4 - H / 2", threeHalves.toString());
    assertEquals("2 * H / 3", h.div(3).plus(h).div(2).toString());
    assertEquals("(H + 1) / 2", h.times(2).plus(2).div(4).toString());
    assertEquals(h.div(2), h.times(2).plus(1).div(4));
    assertEquals(h.div(3).plus(1), h.times(2).plus(7).div(6));
    assertEquals(h.div(3).times(2).plus(h.times(2)).div(4), h.div(3).plus(h).div(2));
    for (long v = 1; v <= 60; v++) {
      Map<String, Long> at = Map.of("H", v);
      assertEquals(Math.floorDiv(Math.floorDiv(v, 3) + v, 2), h.div(3).plus(h).div(2).eval(at));
      assertEquals(
          Math.floorDiv(3 * Math.floorDiv(v, 2) + v, 2) - 2 * Math.floorDiv(v, 2),
          threeHalves.eval(at));
    }
  }

  /** Trees over {@code H}, declared a multiple of 4, and {@code W}, of any size. */
  @Provide
  Arbitrary<Tree> unitTree() {
    return trees(
        3,
        Arbitraries.oneOf(Arbitraries.just(new Multiple("H", 4)), Arbitraries.just(new Leaf("W"))));
  }

  /**
   * With {@code H} a multiple of 4, an expression evaluates to its tree's value, and so does the
   * text it prints ({@code H / 2}, {@code 3 * H / 4}, as generated code writes it), read back by
   * {@link SizeExpr#parse} as plain integer arithmetic.
   */
  @Property(tries = 2000)
  void multiplesEvaluateAndPrintAsTheirValues(
      @ForAll("unitTree") Tree t,
      @ForAll @IntRange(min = 1, max = 75) int quarters,
      @ForAll @IntRange(min = 1, max = 300) int w) {
    Map<String, Long> sizes = Map.of("H", 4L * quarters, "W", (long) w);
    SizeExpr e = t.expr();
    assertEquals(t.value(sizes), e.eval(sizes), () -> t + " = " + e + " at " + sizes);
    assertEquals(
        t.value(sizes),
        SizeExpr.parse(e.toString()).eval(sizes),
        () -> t + " printed " + e + " at " + sizes);
  }

  /**
   * A dimension declared a multiple of 2 is whole in halves: pooled by 2 then upsampled by 2 it is
   * itself (a U-Net's skip connection), which an undeclared dimension is not.
   */
  @Example
  void aMultipleIsWholeInItsUnits() {
    SizeExpr h = SizeExpr.multiple("H", 2);
    assertEquals(h, h.div(2).times(2));
    assertEquals("H", h.toString());
    assertEquals("H", h.dimName());
    assertEquals("H / 2", h.div(2).toString());
    assertEquals(h, h.plus(-2).div(2).plus(1).times(2));
    assertEquals(h, h.self("H"));
    SizeExpr any = SizeExpr.dim("H");
    assertNotEquals(any, h);
    assertNotEquals(any, any.div(2).times(2));
    SizeExpr h8 = SizeExpr.multiple("H", 8);
    assertEquals("H / 4", h8.div(4).toString());
    assertEquals("3 * H / 8", h8.times(3).div(8).toString());
    assertEquals("H / 16 + 1", h8.div(8).div(2).plus(1).toString());
    assertEquals("H / 12", h8.div(4).div(3).toString());
    assertEquals("-(H / 2) + 3", h8.div(2).times(-1).plus(3).toString());
    assertEquals(5, h8.div(8).eval(Map.of("H", 40L)));
    assertEquals(
        "H >= 3",
        Requirement.simplified(
                SizeExpr.multiple("H", 2).times(2).plus(-4),
                Requirement.Relation.AT_LEAST,
                SizeExpr.constant(1),
                "n",
                "why")
            .text());
    long[] b = h8.div(4).bounds(d -> new long[] {16, 64});
    assertEquals(4, b[0]);
    assertEquals(16, b[1]);
  }

  /**
   * Identities of integer arithmetic give equal (canonical) objects: addition and multiplication
   * commute and associate, multiplication distributes over sums, {@code x - x} is 0, and whole
   * multiples of the divisor leave a quotient ({@code (k * a + b) / k == a + b / k}).
   */
  @Property(tries = 1000)
  void identitiesGiveEqualCanonicalForms(
      @ForAll("tree") Tree ta,
      @ForAll("tree") Tree tb,
      @ForAll("tree") Tree tc,
      @ForAll @IntRange(min = 1, max = 9) int k) {
    SizeExpr a = ta.expr();
    SizeExpr b = tb.expr();
    SizeExpr c = tc.expr();
    assertEquals(a.plus(b), b.plus(a));
    assertEquals(a.times(b), b.times(a));
    assertEquals(a.plus(b).plus(c), a.plus(b.plus(c)));
    assertEquals(a.times(b).times(c), a.times(b.times(c)));
    assertEquals(a.times(b.plus(c)), a.times(b).plus(a.times(c)));
    assertEquals(SizeExpr.constant(0), a.minus(a));
    assertEquals(a, a.plus(b).minus(b));
    assertEquals(a.times(k).plus(b).div(k), a.plus(b.div(k)));
    assertEquals(a.times(k).mod(k), SizeExpr.constant(0));
  }

  /**
   * Equal canonical forms evaluate equal: when two random expressions come out equal (as objects)
   * they agree at every size drawn, and so do the forms the identities above make.
   */
  @Property(tries = 1000)
  void equalFormsEvaluateEqual(
      @ForAll("tree") Tree ta, @ForAll("tree") Tree tb, @ForAll("sizes") Map<String, Long> sizes) {
    SizeExpr a = ta.expr();
    SizeExpr b = tb.expr();
    if (a.equals(b)) {
      assertEquals(ta.value(sizes), tb.value(sizes), () -> ta + " and " + tb + " are " + a);
    }
    SizeExpr reordered = b.plus(a).minus(b);
    assertEquals(a, reordered);
    assertEquals(ta.value(sizes), reordered.eval(sizes));
  }

  /**
   * {@code bounds} holds: for random ranges of {@code H} and {@code W} (a maximum or none), the
   * value at any sizes within them lies within the bounds.
   */
  @Property(tries = 2000)
  void boundsContainEveryValueInTheRanges(
      @ForAll("tree") Tree t,
      @ForAll @IntRange(min = 1, max = 100) int hMin,
      @ForAll @IntRange(min = 0, max = 100) int hSpan,
      @ForAll @IntRange(min = 1, max = 100) int wMin,
      @ForAll @IntRange(min = 0, max = 100) int wSpan,
      @ForAll boolean wUnbounded,
      @ForAll @IntRange(min = 0, max = 1000) int hAt,
      @ForAll @IntRange(min = 0, max = 1000) int wAt) {
    long[] h = {hMin, hMin + hSpan};
    long[] w = {wMin, wUnbounded ? Long.MAX_VALUE : wMin + wSpan};
    long[] b = t.expr().bounds(d -> d.equals("H") ? h : w);
    long hv = hMin + hAt % (hSpan + 1);
    long wv = wMin + (wUnbounded ? wAt : wAt % (wSpan + 1));
    long v = t.value(Map.of("H", hv, "W", wv));
    assertTrue(
        b[0] <= v && v <= b[1],
        () ->
            t.expr() + " = " + v + " at H=" + hv + ", W=" + wv + " outside " + b[0] + ".." + b[1]);
  }
}
