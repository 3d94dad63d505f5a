package dev.kiln.names;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * MXNet's broadcasting of two shapes, the one home of the rule for every part of Kiln that needs
 * it: MXNet 1.9.1's {@code BinaryBroadcastShape} (along each axis the sizes are equal or one of
 * them is 1; the output takes the other) and the limit of its kernels, {@code
 * BinaryBroadcastShapeCompact} (the axes are merged into runs that broadcast alike, and more than
 * {@value #MAX_RUNS} runs fail at run time with "Too many broadcast dimensions"). Kiln adds two
 * restrictions. The shapes must have equal rank: MXNet would match a missing axis from the right,
 * so {@code [C]} against {@code [N, C, H, W]} meets {@code W}, which works only when {@code C ==
 * W}, and is rarely what was meant. A negative size (Kiln's {@code BATCH}, -1, or {@code STEPS},
 * -5) is fixed only when an executor is bound: it matches itself and 1 only, since against another
 * size it would work for one batch size (or length) alone.
 */
public final class Broadcast {
  /** The most runs of axes MXNet 1.9.1's broadcast kernels take ({@code broadcast::MAX_DIM}). */
  public static final int MAX_RUNS = 5;

  /** Why two shapes do not broadcast. */
  public enum Problem {
    /** They do. */
    NONE,
    /** Their ranks differ. */
    RANK,
    /** Along {@link #axis()} their sizes are neither equal nor 1 in one of them. */
    AXIS,
    /** They need more than {@link #MAX_RUNS} runs ({@link #runs()}). */
    RUNS
  }

  private final int[] shape;
  private final Problem problem;
  private final int axis;
  private final int runs;

  private Broadcast(int[] shape, Problem problem, int axis, int runs) {
    this.shape = shape;
    this.problem = problem;
    this.axis = axis;
    this.runs = runs;
  }

  /** How {@code a} and {@code b} broadcast, the first on the left. */
  public static Broadcast of(int[] a, int[] b) {
    if (a.length != b.length) {
      return new Broadcast(new int[0], Problem.RANK, -1, 0);
    }
    int[] out = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      if (a[i] == b[i] || b[i] == 1) {
        out[i] = a[i];
      } else if (a[i] == 1) {
        out[i] = b[i];
      } else {
        return new Broadcast(new int[0], Problem.AXIS, i, 0);
      }
    }
    int runs = runs(a, b);
    return new Broadcast(out, runs > MAX_RUNS ? Problem.RUNS : Problem.NONE, -1, runs);
  }

  /**
   * The number of runs MXNet's {@code BinaryBroadcastShapeCompact} merges the axes of two shapes
   * that broadcast into (0 for equal shapes, which it computes element by element), with every size
   * fixed at bind time taken to be above 1: the most any batch size can need.
   */
  static int runs(int[] a, int[] b) {
    if (Arrays.equals(a, b)) {
      return 0;
    }
    int runs = 0;
    BigInteger lprod = BigInteger.ONE;
    BigInteger rprod = BigInteger.ONE;
    for (int i = 0; i < a.length; i++) {
      BigInteger l = size(a[i]);
      BigInteger r = size(b[i]);
      boolean differ = !lprod.equals(rprod) || !l.equals(r);
      if (differ && above1(lprod.multiply(l)) && above1(rprod.multiply(r))) {
        runs++;
        lprod = BigInteger.ONE;
        rprod = BigInteger.ONE;
      }
      lprod = lprod.multiply(l);
      rprod = rprod.multiply(r);
    }
    return above1(lprod) || above1(rprod) ? runs + 1 : runs;
  }

  /** A size as the run count sees it: a size fixed at bind time as a large one of its own. */
  private static BigInteger size(int d) {
    return d >= 0 ? BigInteger.valueOf(d) : BigInteger.valueOf(1_000_003L - d);
  }

  private static boolean above1(BigInteger v) {
    return v.compareTo(BigInteger.ONE) > 0;
  }

  /** Whether the shapes broadcast. */
  public boolean ok() {
    return problem == Problem.NONE;
  }

  /** Why they do not, or {@link Problem#NONE}. */
  public Problem problem() {
    return problem;
  }

  /** The output shape, when they broadcast (a copy); empty otherwise. */
  public int[] shape() {
    return shape.clone();
  }

  /** The first axis whose sizes do not broadcast ({@link Problem#AXIS}), else -1. */
  public int axis() {
    return axis;
  }

  /** The runs of axes MXNet's kernels need (0 for equal shapes); see {@link #MAX_RUNS}. */
  public int runs() {
    return runs;
  }

  /**
   * Operands of different rank, each axis named by a custom layer's shape patterns (null where it
   * has no name): MXNet lines up their last axes, so axis {@code j} of {@code low} meets axis
   * {@code high.length - low.length + j} of {@code high}. The first {@code j} whose size is above
   * 1, the same as the axis it meets, and whose name differs from that axis's: a pair that
   * broadcasts only because two different dimensions happen to have one size. -1 when there is
   * none.
   */
  public static int misnamed(int[] low, String[] lowNames, int[] high, String[] highNames) {
    int shift = high.length - low.length;
    for (int j = 0; j < low.length; j++) {
      int h = shift + j;
      if (low[j] > 1
          && low[j] == high[h]
          && lowNames[j] != null
          && highNames[h] != null
          && !lowNames[j].equals(highNames[h])) {
        return j;
      }
    }
    return -1;
  }

  /**
   * Where {@code low} (of lower rank) fits inside {@code high}, named as the custom layer's
   * patterns name them: the first offset {@code at} such that every axis {@code j} of {@code low}
   * is 1, or has the size of axis {@code at + j} of {@code high} and (where named) its name. -1
   * when none does. Giving {@code low} the rank of {@code high}, with 1 outside, lines it up there.
   */
  public static int lineUp(int[] low, String[] lowNames, int[] high, String[] highNames) {
    for (int at = 0; at <= high.length - low.length; at++) {
      boolean fits = true;
      for (int j = 0; j < low.length && fits; j++) {
        String name = lowNames[j];
        fits =
            low[j] == 1
                || low[j] == high[at + j] && (name == null || name.equals(highNames[at + j]));
      }
      if (fits) {
        return at;
      }
    }
    return -1;
  }

  /**
   * The names of the axes of the broadcast of {@code a} (its axes named {@code an}, null where one
   * has no name) with {@code b} ({@code bn}), lined up at their last axes as MXNet does: an axis
   * takes the name of the operand whose size it has, the left's where both sizes agree or the
   * right's is 1 (an axis the left lacks counting as 1).
   */
  public static String[] names(int[] a, String[] an, int[] b, String[] bn) {
    int rank = Math.max(a.length, b.length);
    String[] out = new String[rank];
    for (int i = 1; i <= rank; i++) {
      int q = i <= b.length ? b[b.length - i] : 1;
      int p = i <= a.length ? a[a.length - i] : 1;
      String m = i <= a.length ? an[a.length - i] : null;
      String n = i <= b.length ? bn[b.length - i] : null;
      out[rank - i] = p == q || q == 1 ? (m != null || q == 1 ? m : n) : n;
    }
    return out;
  }

  /**
   * {@code low} given the rank of {@code high}, lined up at axis {@code at} of it ({@link
   * #lineUp}): for each axis of {@code high} from the first after its leading unknown sizes ({@code
   * BATCH}), the name of {@code low}'s axis there (its size where it has no name) and that size, or
   * "1" and 1 outside {@code low}. What a custom layer's parameter should be declared.
   *
   * @param tokens the shape pattern, e.g. {@code channels, 1, 1}
   * @param sizes the sizes it has, e.g. {@code 16, 1, 1}
   */
  public record Widened(List<String> tokens, List<Integer> sizes) {
    /** Copies the lists. */
    public Widened {
      tokens = List.copyOf(tokens);
      sizes = List.copyOf(sizes);
    }

    /**
     * {@code low} (its axes named {@code lowNames}) widened to {@code high}'s rank at {@code at}.
     */
    public static Widened of(int[] low, String[] lowNames, int[] high, int at) {
      int lead = 0;
      while (lead < at && high[lead] < 0) {
        lead++;
      }
      List<String> tokens = new ArrayList<>();
      List<Integer> sizes = new ArrayList<>();
      for (int t = lead; t < high.length; t++) {
        boolean in = t >= at && t < at + low.length;
        String name = in ? lowNames[t - at] : null;
        int size = in ? low[t - at] : 1;
        tokens.add(name == null ? Integer.toString(size) : name);
        sizes.add(size);
      }
      return new Widened(tokens, sizes);
    }
  }
}
