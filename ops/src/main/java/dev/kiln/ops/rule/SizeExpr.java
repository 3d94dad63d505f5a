package dev.kiln.ops.rule;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A size written in a model's free dimensions ({@code H}, {@code W}, ...): an integer polynomial
 * whose atoms are the dimensions and floor quotients by positive constants ({@code (H - 4) / 2}),
 * the arithmetic of MXNet's shape functions for convolution, pooling, flattening and concatenation.
 *
 * <p>Every expression is kept in one canonical form: a sum of terms, each a coefficient times a
 * product of atoms, terms in a fixed order, and a quotient {@code P / k} split into {@code Q + R /
 * k} where {@code Q} takes every whole multiple of {@code k}, {@code R}'s coefficients lie in
 * {@code [0, k)} and share no factor with {@code k}, and a quotient nested alone in {@code R} is
 * folded into one ({@code (H / 2 + 1) / 2} is {@code (H + 2) / 4}). Two expressions that are equal
 * for every value of their dimensions (within what this form decides) are therefore {@link #equals
 * equal} objects: {@code (H + 2 - 3) / 1 + 1} is {@code H}, {@code (2 * H + 2) / 2} is {@code H +
 * 1}. Quotients are floors: dimensions are positive and a quotient's numerator is made non-negative
 * ({@code R}), so Java's integer division and the floor agree; {@link #toString} writes them as
 * Java would.
 *
 * <p>Immutable.
 */
public final class SizeExpr {
  /** One factor of a term: a dimension or a floor quotient. */
  private sealed interface Atom permits Dim, Quotient {
    String key();
  }

  /**
   * Dimension {@code name} divided by {@code unit}, a whole number: {@code H / 8} of a dimension
   * declared a multiple of 8 (the dimension itself is {@code 8 * H / 8}); {@code unit} is 1 for a
   * dimension of any size.
   */
  private record Dim(String name, long unit) implements Atom {
    @Override
    public String key() {
      return unit == 1 ? name : name + "@" + unit;
    }
  }

  private record Quotient(SizeExpr numerator, long divisor) implements Atom {
    @Override
    public String key() {
      return "(" + numerator.canonical() + ") / " + divisor;
    }
  }

  /** A product of atoms, in {@link Atom#key} order; the empty product is the constant term. */
  private record Term(List<Atom> atoms) {
    Term {
      atoms = atoms.stream().sorted(Comparator.comparing(Atom::key)).toList();
    }

    String key() {
      return String.join(" * ", atoms.stream().map(Atom::key).toList());
    }

    Term times(Term other) {
      List<Atom> all = new ArrayList<>(atoms);
      all.addAll(other.atoms);
      return new Term(all);
    }
  }

  /** Constant term last, others by degree then text: {@code 2 * H * W + H - 4}. */
  private static final Comparator<Term> ORDER =
      Comparator.comparing((Term t) -> t.atoms().isEmpty())
          .thenComparing(t -> -t.atoms().size())
          .thenComparing(Term::key);

  private final TreeMap<Term, Long> terms;

  /** {@link #canonical()}, made on first use. */
  private String canonical;

  private SizeExpr(TreeMap<Term, Long> terms) {
    terms.values().removeIf(c -> c == 0);
    this.terms = terms;
  }

  /** The constant {@code value}. */
  public static SizeExpr constant(long value) {
    TreeMap<Term, Long> t = new TreeMap<>(ORDER);
    t.put(new Term(List.of()), value);
    return new SizeExpr(t);
  }

  /** The free dimension {@code name}. */
  public static SizeExpr dim(String name) {
    return multiple(name, 1);
  }

  /**
   * The free dimension {@code name}, declared a multiple of {@code unit}: {@code unit} times the
   * whole number {@code name / unit}, so that the algebra knows {@code 2 * (H / 2)} is {@code H}
   * (pooled by 2, then upsampled by 2). It prints as {@code H}, and {@code H / 2} divided by 2;
   * {@link #substitute} and {@link #eval} read {@code name / unit} as the exact quotient, which the
   * caller checks ({@code H % unit == 0}) before trusting a value. Not {@link #equals} to {@link
   * #dim}{@code (name)}, which stands for any size.
   */
  public static SizeExpr multiple(String name, long unit) {
    if (unit <= 0) {
      throw new IllegalArgumentException(
          "a dimension is a multiple of a positive number, got " + unit);
    }
    TreeMap<Term, Long> t = new TreeMap<>(ORDER);
    t.put(new Term(List.of(new Dim(name, unit))), unit);
    return new SizeExpr(t);
  }

  /**
   * What dimension {@code name} is a whole multiple of within this expression ({@link #multiple});
   * 1 for a dimension of any size or one this is not written in.
   */
  public long unitOf(String name) {
    for (Term t : terms.keySet()) {
      for (Atom a : t.atoms()) {
        if (a instanceof Dim d && d.name().equals(name)) {
          return d.unit();
        }
        if (a instanceof Quotient q && q.numerator().dims().contains(name)) {
          return q.numerator().unitOf(name);
        }
      }
    }
    return 1;
  }

  /**
   * The expression dimension {@code name} is within this one ({@link #dim} or {@link #multiple}),
   * or null when this is not written in it.
   */
  public SizeExpr self(String name) {
    return dims().contains(name) ? multiple(name, unitOf(name)) : null;
  }

  /** Whether this is a constant (no dimension in it). */
  public boolean isConstant() {
    return terms.keySet().stream().allMatch(t -> t.atoms().isEmpty());
  }

  /** The constant's value; only for {@link #isConstant()}. */
  public long constant() {
    if (!isConstant()) {
      throw new IllegalStateException(this + " is not a constant");
    }
    return terms.getOrDefault(new Term(List.of()), 0L);
  }

  /** The constant term: {@code -4} of {@code H / 2 - 4}. */
  public long constantTerm() {
    return terms.getOrDefault(new Term(List.of()), 0L);
  }

  /** The name of the dimension this is, or null when it is anything else. */
  public String dimName() {
    if (terms.size() != 1) {
      return null;
    }
    Map.Entry<Term, Long> e = terms.firstEntry();
    return e.getKey().atoms().size() == 1
            && e.getKey().atoms().get(0) instanceof Dim d
            && e.getValue() == d.unit()
        ? d.name()
        : null;
  }

  /** The dimensions this is written in, in first-appearance order. */
  public Set<String> dims() {
    Set<String> out = new LinkedHashSet<>();
    for (Term t : terms.keySet()) {
      for (Atom a : t.atoms()) {
        if (a instanceof Dim d) {
          out.add(d.name());
        } else if (a instanceof Quotient q) {
          out.addAll(q.numerator().dims());
        }
      }
    }
    return out;
  }

  /** {@code this + other}. */
  public SizeExpr plus(SizeExpr other) {
    TreeMap<Term, Long> t = new TreeMap<>(terms);
    other.terms.forEach((term, c) -> t.merge(term, c, Math::addExact));
    return new SizeExpr(t);
  }

  /** {@code this + value}. */
  public SizeExpr plus(long value) {
    return plus(constant(value));
  }

  /** {@code this - other}. */
  public SizeExpr minus(SizeExpr other) {
    return plus(other.times(-1));
  }

  /** {@code this * factor}. */
  public SizeExpr times(long factor) {
    TreeMap<Term, Long> t = new TreeMap<>(ORDER);
    terms.forEach((term, c) -> t.put(term, Math.multiplyExact(c, factor)));
    return new SizeExpr(t);
  }

  /** {@code this * other}. */
  public SizeExpr times(SizeExpr other) {
    TreeMap<Term, Long> t = new TreeMap<>(ORDER);
    terms.forEach(
        (a, ca) ->
            other.terms.forEach(
                (b, cb) -> t.merge(a.times(b), Math.multiplyExact(ca, cb), Math::addExact)));
    return new SizeExpr(t);
  }

  /**
   * {@code floor(this / divisor)}, {@code divisor > 0}: whole multiples leave the quotient, so that
   * {@code (2 * H - 4) / 2} is {@code H - 2} and {@code (H - 4) / 2} is {@code H / 2 - 2}.
   */
  public SizeExpr div(long divisor) {
    if (divisor <= 0) {
      throw new IllegalArgumentException("a size is divided by a positive number, got " + divisor);
    }
    if (divisor == 1) {
      return this;
    }
    TreeMap<Term, Long> whole = new TreeMap<>(ORDER);
    TreeMap<Term, Long> rest = new TreeMap<>(ORDER);
    terms.forEach(
        (term, c) -> {
          whole.put(term, Math.floorDiv(c, divisor));
          rest.put(term, Math.floorMod(c, divisor));
        });
    SizeExpr r = new SizeExpr(rest);
    SizeExpr q = new SizeExpr(whole);
    if (r.isConstant()) {
      // 0 <= r < divisor: the remainder's quotient is zero.
      return q;
    }
    return q.plus(remainderQuotient(r, divisor));
  }

  /**
   * {@code floor(r / k)} for a non-constant {@code r} whose coefficients lie in {@code [0, k)}, in
   * canonical form: a common factor {@code g} of {@code k} and every coefficient but the constant's
   * is divided out, the constant {@code b} becoming {@code floor(b / g)} ({@code floor((g X + b) /
   * (g m)) = floor((X + floor(b / g)) / m)} for integer {@code X}: {@code (2 * H + 2) / 4} is
   * {@code (H + 1) / 2}, {@code (2 * H + 1) / 4} is {@code H / 2}), and a quotient that is the
   * numerator's only one, alone in its term with coefficient 1, is folded in: {@code floor((floor(P
   * / j) + S) / k) = floor((P + j S) / (j k))} for integer {@code S}, so that pooling twice by 2 is
   * {@code H / 4}.
   */
  private static SizeExpr remainderQuotient(SizeExpr r, long k) {
    long g = k;
    for (Map.Entry<Term, Long> e : r.terms.entrySet()) {
      if (!e.getKey().atoms().isEmpty()) {
        g = gcd(g, e.getValue());
      }
    }
    if (g > 1) {
      TreeMap<Term, Long> reduced = new TreeMap<>(ORDER);
      final long common = g;
      r.terms.forEach((term, c) -> reduced.put(term, Math.floorDiv(c, common)));
      r = new SizeExpr(reduced);
      k /= g;
    }
    List<Term> quotients =
        r.terms.keySet().stream()
            .filter(t -> t.atoms().stream().anyMatch(a -> a instanceof Quotient))
            .toList();
    if (quotients.size() == 1
        && quotients.get(0).atoms().size() == 1
        && r.terms.get(quotients.get(0)) == 1) {
      Quotient inner = (Quotient) quotients.get(0).atoms().get(0);
      TreeMap<Term, Long> others = new TreeMap<>(r.terms);
      others.remove(quotients.get(0));
      return inner
          .numerator()
          .plus(new SizeExpr(others).times(inner.divisor()))
          .div(Math.multiplyExact(inner.divisor(), k));
    }
    TreeMap<Term, Long> atom = new TreeMap<>(ORDER);
    atom.put(new Term(List.of(new Quotient(r, k))), 1L);
    return new SizeExpr(atom);
  }

  /** The greatest common divisor of {@code a} and {@code b}, non-negative. */
  static long gcd(long a, long b) {
    return b == 0 ? Math.abs(a) : gcd(b, a % b);
  }

  /** {@code this % divisor} (the floor's remainder): {@code this - divisor * (this / divisor)}. */
  public SizeExpr mod(long divisor) {
    return minus(div(divisor).times(divisor));
  }

  /** This expression with each dimension replaced by {@code value.apply(name)}. */
  public SizeExpr substitute(Function<String, SizeExpr> value) {
    SizeExpr out = constant(0);
    for (Map.Entry<Term, Long> e : terms.entrySet()) {
      SizeExpr product = constant(e.getValue());
      for (Atom a : e.getKey().atoms()) {
        product =
            product.times(
                a instanceof Dim d
                    ? value.apply(d.name()).div(d.unit())
                    : ((Quotient) a).numerator().substitute(value).div(((Quotient) a).divisor()));
      }
      out = out.plus(product);
    }
    return out;
  }

  /**
   * The value for the dimensions' sizes {@code sizes}.
   *
   * @throws IllegalArgumentException naming a dimension {@code sizes} has no size for
   */
  public long eval(Map<String, Long> sizes) {
    return substitute(
            name -> {
              Long v = sizes.get(name);
              if (v == null) {
                throw new IllegalArgumentException(
                    "no size for dimension " + name + " in " + this + "; sizes given: " + sizes);
              }
              return constant(v);
            })
        .constant();
  }

  /**
   * The least and greatest values this can take when each dimension {@code d} lies in {@code
   * range.apply(d)} ({@code [min, max]}, {@code Long.MAX_VALUE} for no maximum), by interval
   * arithmetic: a bound that holds, not always the tightest. {@code Long.MIN_VALUE} and {@code
   * Long.MAX_VALUE} stand for no bound.
   */
  public long[] bounds(Function<String, long[]> range) {
    long lo = 0;
    long hi = 0;
    for (Map.Entry<Term, Long> e : terms.entrySet()) {
      long[] p = {1, 1};
      for (Atom a : e.getKey().atoms()) {
        long[] f =
            a instanceof Dim d
                ? divide(range.apply(d.name()), d.unit())
                : divide(((Quotient) a).numerator().bounds(range), ((Quotient) a).divisor());
        p = product(p, f);
      }
      long c = e.getValue();
      long[] t =
          c >= 0
              ? new long[] {mul(p[0], c), mul(p[1], c)}
              : new long[] {mul(p[1], c), mul(p[0], c)};
      lo = add(lo, t[0]);
      hi = add(hi, t[1]);
    }
    return new long[] {lo, hi};
  }

  private static long[] divide(long[] b, long k) {
    return new long[] {
      b[0] == Long.MIN_VALUE ? Long.MIN_VALUE : Math.floorDiv(b[0], k),
      b[1] == Long.MAX_VALUE ? Long.MAX_VALUE : Math.floorDiv(b[1], k)
    };
  }

  private static long[] product(long[] a, long[] b) {
    long[] c = {mul(a[0], b[0]), mul(a[0], b[1]), mul(a[1], b[0]), mul(a[1], b[1])};
    long lo = Long.MAX_VALUE;
    long hi = Long.MIN_VALUE;
    for (long v : c) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    return new long[] {lo, hi};
  }

  private static boolean infinite(long v) {
    return v == Long.MIN_VALUE || v == Long.MAX_VALUE;
  }

  private static long mul(long a, long b) {
    if (a == 0 || b == 0) {
      return 0;
    }
    if (infinite(a) || infinite(b)) {
      return (a > 0) == (b > 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException e) {
      return (a > 0) == (b > 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
  }

  private static long add(long a, long b) {
    if (infinite(a)) {
      return a;
    }
    if (infinite(b)) {
      return b;
    }
    try {
      return Math.addExact(a, b);
    } catch (ArithmeticException e) {
      return a > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
  }

  /**
   * Reads an expression as {@link #toString} writes it: integers, dimension names (Java
   * identifiers), {@code + - * / %} (dividing by a positive integer only) and parentheses.
   *
   * @throws IllegalArgumentException naming the position where {@code text} stops making sense
   */
  public static SizeExpr parse(String text) {
    Parser p = new Parser(text);
    SizeExpr e = p.sum();
    p.skipSpace();
    if (p.pos != text.length()) {
      throw p.error("an operator or the end");
    }
    return e;
  }

  private static final class Parser {
    private final String text;
    private int pos;

    Parser(String text) {
      this.text = text;
    }

    void skipSpace() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
    }

    boolean eat(char c) {
      skipSpace();
      if (pos < text.length() && text.charAt(pos) == c) {
        pos++;
        return true;
      }
      return false;
    }

    IllegalArgumentException error(String expected) {
      return new IllegalArgumentException(
          "cannot read size expression \""
              + text
              + "\": expected "
              + expected
              + " at position "
              + pos);
    }

    SizeExpr sum() {
      SizeExpr e = product();
      while (true) {
        if (eat('+')) {
          e = e.plus(product());
        } else if (eat('-')) {
          e = e.minus(product());
        } else {
          return e;
        }
      }
    }

    SizeExpr product() {
      SizeExpr e = factor();
      while (true) {
        if (eat('*')) {
          e = e.times(factor());
        } else if (eat('/')) {
          e = e.div(divisor());
        } else if (eat('%')) {
          e = e.mod(divisor());
        } else {
          return e;
        }
      }
    }

    long divisor() {
      SizeExpr d = factor();
      if (!d.isConstant() || d.constant() <= 0) {
        throw error("a positive integer divisor, not " + d);
      }
      return d.constant();
    }

    SizeExpr factor() {
      skipSpace();
      if (eat('(')) {
        SizeExpr e = sum();
        if (!eat(')')) {
          throw error("')'");
        }
        return e;
      }
      if (eat('-')) {
        return factor().times(-1);
      }
      int start = pos;
      if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
          pos++;
        }
        return constant(Long.parseLong(text.substring(start, pos)));
      }
      if (pos < text.length() && Character.isJavaIdentifierStart(text.charAt(pos))) {
        while (pos < text.length() && Character.isJavaIdentifierPart(text.charAt(pos))) {
          pos++;
        }
        return dim(text.substring(start, pos));
      }
      throw error("a number, a dimension name or '('");
    }
  }

  /**
   * {@code H / 2 - 6}, {@code 2 * H * W + 1}, {@code (H + 1) / 2}: Java's way, floors as {@code /};
   * a dimension declared a multiple of 8 as {@code H}, {@code H / 4}, {@code 3 * H / 8}, which
   * {@link #parse} reads back as the same values for sizes that are multiples of 8.
   */
  @Override
  public String toString() {
    return render(true);
  }

  /**
   * The form {@link #equals} compares: {@link #toString}'s, but a dimension declared a multiple of
   * {@code k} written {@code H@k} and counted in units of {@code k}.
   */
  private String canonical() {
    if (canonical == null) {
      canonical = render(false);
    }
    return canonical;
  }

  private String render(boolean display) {
    if (terms.isEmpty()) {
      return "0";
    }
    StringBuilder b = new StringBuilder();
    for (Map.Entry<Term, Long> e : terms.entrySet()) {
      long c = e.getValue();
      List<Atom> atoms = e.getKey().atoms();
      // Displayed, c * (H / 8) * (W / 8) is c * H * W / 64 with the common factor of c and 64 gone.
      long units = 1;
      if (display) {
        for (Atom a : atoms) {
          if (a instanceof Dim d) {
            units = Math.multiplyExact(units, d.unit());
          }
        }
      }
      long g = gcd(Math.abs(c), units);
      c /= g;
      long under = units / g;
      // A leading minus binds tighter than '/': -(H / 2), not -H / 2, which reads (-H) / 2.
      boolean negativeFirst = c < 0 && b.length() == 0;
      boolean alone = atoms.size() == 1 && Math.abs(c) == 1 && under == 1 && !negativeFirst;
      String factors =
          String.join(
              " * ",
              atoms.stream()
                  .map(
                      a ->
                          a instanceof Quotient q
                              ? quotient(q, display, !alone)
                              : display ? ((Dim) a).name() : a.key())
                  .toList());
      long abs = Math.abs(c);
      String term =
          atoms.isEmpty() ? Long.toString(abs) : abs == 1 ? factors : abs + " * " + factors;
      if (under != 1) {
        term = term + " / " + under;
        if (negativeFirst) {
          term = "(" + term + ")";
        }
      }
      if (b.length() == 0) {
        b.append(c < 0 ? "-" : "").append(term);
      } else {
        b.append(c < 0 ? " - " : " + ").append(term);
      }
    }
    return b.toString();
  }

  /** {@code H / 2}, {@code (H + 1) / 2}; in parentheses when another factor multiplies it. */
  private static String quotient(Quotient q, boolean display, boolean enclosed) {
    String text = display ? wholeUnits(q) : null;
    if (text == null) {
      String numerator = q.numerator().render(display);
      String n = q.numerator().terms.size() > 1 ? "(" + numerator + ")" : numerator;
      text = n + " / " + q.divisor();
    }
    return enclosed ? "(" + text + ")" : text;
  }

  /**
   * {@code H / 4} for the quotient {@code (H / 2) / 2} of a dimension declared a multiple of 2: a
   * numerator that is one product of dimensions counted in whole units is a whole number, so its
   * floor by {@code d} is the product's floor by {@code units * d}. Null for any other quotient.
   */
  private static String wholeUnits(Quotient q) {
    if (q.numerator().terms.size() != 1) {
      return null;
    }
    Map.Entry<Term, Long> e = q.numerator().terms.firstEntry();
    long units = 1;
    List<String> names = new ArrayList<>();
    for (Atom a : e.getKey().atoms()) {
      if (!(a instanceof Dim d)) {
        return null;
      }
      units = Math.multiplyExact(units, d.unit());
      names.add(d.name());
    }
    if (units == 1 || names.isEmpty()) {
      return null;
    }
    long c = e.getValue();
    long under = Math.multiplyExact(units, q.divisor());
    long g = gcd(c, under);
    c /= g;
    under /= g;
    String product = (c == 1 ? "" : c + " * ") + String.join(" * ", names);
    return under == 1 ? product : product + " / " + under;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SizeExpr s && canonical().equals(s.canonical());
  }

  @Override
  public int hashCode() {
    return canonical().hashCode();
  }
}
