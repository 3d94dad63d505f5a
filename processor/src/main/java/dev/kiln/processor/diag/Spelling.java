package dev.kiln.processor.diag;

import java.util.Locale;

/** "Did you mean": the name a mistyped one was most likely meant to be. */
public final class Spelling {
  private Spelling() {}

  /** The name within edit distance 2 (and less than half its length) closest to {@code name}. */
  public static String closest(String name, Iterable<String> candidates) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : candidates) {
      int d = distance(name.toLowerCase(Locale.ROOT), c.toLowerCase(Locale.ROOT));
      if (d < bestDistance && d <= 2 && d < Math.max(2, name.length() / 2 + 1)) {
        best = c;
        bestDistance = d;
      }
    }
    return best;
  }

  private static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
