package dev.kiln.processor.write;

import com.palantir.javapoet.CodeBlock;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** Java literals as a person would write them, and long strings split to fit the line. */
final class Literals {
  /** Strings up to this length stay one literal, which fits on a continuation line. */
  private static final int LONGEST = 88;

  /** The length a long string's parts aim at: long enough that two never share a line. */
  private static final int PART = 75;

  private Literals() {}

  /**
   * {@code s} as a string literal or, when it is too long for a line, as a concatenation of
   * literals of about equal length split after a comma or space, with a wrapping point before each
   * {@code +}, so that JavaPoet keeps every line within 100 columns and no two parts share one.
   */
  static CodeBlock string(String s) {
    int parts = s.length() <= LONGEST ? 1 : (s.length() + PART - 1) / PART;
    List<String> pieces = new ArrayList<>();
    String rest = s;
    for (int i = parts; i > 1; i--) {
      int target = rest.length() / i;
      int cut = rest.lastIndexOf(", ", target + 10);
      cut = cut > 0 ? cut + 2 : rest.lastIndexOf(' ', target + 10) + 1;
      if (cut <= 0) {
        cut = target;
      }
      pieces.add(rest.substring(0, cut));
      rest = rest.substring(cut);
    }
    pieces.add(rest);
    CodeBlock.Builder b = CodeBlock.builder().add("$S", pieces.get(0));
    for (String piece : pieces.subList(1, pieces.size())) {
      b.add("$W+ $S", piece);
    }
    return b.build();
  }

  /**
   * {@code 0.001}, {@code 1e-5}, {@code 0.9}: a double as its shortest decimal, in scientific
   * notation only when that is how Java prints it; an infinity as {@code Double}'s constant.
   */
  static String decimal(double d) {
    if (Double.isInfinite(d)) {
      return d > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY";
    }
    String java = Double.toString(d);
    int e = java.indexOf('E');
    if (e < 0) {
      return java;
    }
    String mantissa = new BigDecimal(java.substring(0, e)).stripTrailingZeros().toPlainString();
    return mantissa + "e" + java.substring(e + 1);
  }
}
