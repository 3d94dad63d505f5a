package dev.kiln.ops.rule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.ops.rule.SizeExprPropertiesTest.Tree;
import java.util.Map;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link Requirement}s of random expressions: the simplified form ({@link Requirement#simplified},
 * {@code 2 * H - 7 >= 0} as {@code H >= 4}) holds exactly where the comparison it was made from
 * does, and the text generated code writes ({@link Requirement#text}) reads back ({@link
 * Requirement#of}) as the same requirement, which the runtime checks.
 */
class RequirementPropertiesTest {
  @Provide
  Arbitrary<Tree> tree() {
    return SizeExprPropertiesTest.trees(3);
  }

  @Provide
  Arbitrary<Map<String, Long>> sizes() {
    return new SizeExprPropertiesTest().sizes();
  }

  @Property(tries = 2000)
  void simplifiedHoldsWhereTheComparisonDoes(
      @ForAll("tree") Tree a,
      @ForAll("tree") Tree b,
      @ForAll Requirement.Relation relation,
      @ForAll("sizes") Map<String, Long> sizes) {
    Requirement r = Requirement.simplified(a.expr(), relation, b.expr(), "n", "why");
    long l = a.value(sizes);
    long v = b.value(sizes);
    boolean expected =
        switch (relation) {
          case AT_LEAST -> l >= v;
          case AT_MOST -> l <= v;
          case EQUALS -> l == v;
        };
    assertEquals(expected, r.holds(sizes), () -> r + " from " + a + " and " + b + " at " + sizes);
    Requirement back = Requirement.of(r.text(), "n", "why");
    assertEquals(r, back);
    assertEquals(r.text(), back.text());
    assertEquals(expected, back.holds(sizes), () -> r.text() + " read back at " + sizes);
  }
}
