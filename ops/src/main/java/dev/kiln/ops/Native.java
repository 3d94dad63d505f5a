package dev.kiln.ops;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * What Kiln knows of one MXNet operator's native kernels (MXNet 1.9.1, oneDNN on), declared by the
 * unit that emits it ({@code Unit.natives}) and read by the runtime's passes over symbol files, so
 * that each fact has one home beside the operator it is about.
 *
 * @param op the MXNet operator, e.g. {@code Convolution}
 * @param reorderedInput the input whose array oneDNN rewrites in place into a blocked layout during
 *     an inference-mode forward pass ({@code MKLDNNDataReorderAsync}, which replaces the array's
 *     whole storage chunk), or -1: such an input must never be a view of a larger array then
 * @param relabelledInput the input whose array (and gradient) oneDNN relabels in place in every
 *     pass, training too ({@code UpdateMKLDNNMemDesc}), or -1: such an input must be an array of
 *     its own
 * @param bf16 what the operator does in bf16 mixed precision
 * @param keepsChannels whether a node of it, given its attributes (a lookup by MXNet's attribute
 *     name, null when absent), acts on each channel of {@code [N, C, ...]} alone and keeps the
 *     channels where they were, so that zero channels added before it stay apart
 */
public record Native(
    String op,
    int reorderedInput,
    int relabelledInput,
    Bf16 bf16,
    Predicate<UnaryOperator<String>> keepsChannels) {
  /** An operator's part in bf16 mixed precision (MXNet's AMP pass). */
  public enum Bf16 {
    /** It computes in bfloat16 on oneDNN's bf16 kernels. */
    LOW,
    /** It runs in whatever type reaches it (oneDNN has bfloat16 kernels for it). */
    FOLLOW,
    /** It stays float32, with casts where it meets bfloat16. */
    FLOAT32
  }

  /** An operator with none of the quirks: float32 in mixed precision, channels not kept. */
  static Native of(String op) {
    return new Native(op, -1, -1, Bf16.FLOAT32, attrs -> false);
  }

  /** This operator, whose input {@code input} oneDNN reorders in place in inference. */
  Native reorders(int input) {
    return new Native(op, input, relabelledInput, bf16, keepsChannels);
  }

  /** This operator, whose input {@code input} oneDNN relabels in place in every pass. */
  Native relabels(int input) {
    return new Native(op, reorderedInput, input, bf16, keepsChannels);
  }

  /** This operator with part {@code part} in bf16 mixed precision. */
  Native bf16(Bf16 part) {
    return new Native(op, reorderedInput, relabelledInput, part, keepsChannels);
  }

  /** This operator, keeping each channel where it was whenever {@code rule} holds. */
  Native keepsChannels(Predicate<UnaryOperator<String>> rule) {
    return new Native(op, reorderedInput, relabelledInput, bf16, rule);
  }

  /**
   * Every declared operator by name, made on first use: the units that declare them refer to this
   * class while they initialise, so the table cannot be made when it is.
   */
  private static final class Table {
    static final Map<String, Native> ALL = new TreeMap<>();

    static {
      for (Unit unit : Ops.UNITS) {
        for (Native n : unit.natives()) {
          if (ALL.put(n.op(), n) != null) {
            throw new AssertionError("two units declare the kernels of " + n.op());
          }
        }
      }
    }
  }

  /** What Kiln knows of operator {@code op}, if it declares anything. */
  public static Optional<Native> declared(String op) {
    return Optional.ofNullable(Table.ALL.get(op));
  }

  /** What Kiln knows of operator {@code op}: no quirk at all when nothing is declared. */
  public static Native lookup(String op) {
    Native n = Table.ALL.get(op);
    return n != null ? n : of(op);
  }

  /** The operators of part {@code part} in bf16 mixed precision, in name order. */
  public static List<String> withBf16(Bf16 part) {
    return Table.ALL.values().stream().filter(n -> n.bf16 == part).map(Native::op).toList();
  }

  /** Whether a node of this operator with attributes {@code attrs} keeps its channels. */
  public boolean keepsChannelsOf(UnaryOperator<String> attrs) {
    return keepsChannels.test(attrs);
  }

  /** Whether a {@code layout} attribute (null or {@code None} when unset) is channels first. */
  public static boolean channelsFirst(String layout) {
    return layout == null || layout.equals("None") || layout.matches("NC[DHW]*");
  }
}
