package dev.kiln.annotations;

/**
 * A symbolic tensor: the output of one node of a model's graph. In a {@link Model} interface every
 * node method returns {@code Sym} and takes the {@code Sym}s it reads; in a custom {@link Layer}'s
 * forward pass its operations build the layer's graph. The Kiln runtime implements this interface
 * while it builds the graph; user code never implements it.
 *
 * <p>Every operation checks its operands' shapes when the graph is built and names the layer, the
 * node and both shapes when they do not fit. Element-wise operations broadcast like NumPy.
 */
public interface Sym {
  /** The name of the graph node this tensor is the output of. */
  String name();

  /**
   * Matrix product over the last axis of this and the first axis of {@code other} (MXNet's {@code
   * dot}): {@code [.., k] · [k, n] -> [.., n]}.
   */
  Sym dot(Sym other);

  /** Element-wise sum, broadcasting ({@code broadcast_add}). */
  Sym add(Sym other);

  /** Element-wise difference, broadcasting ({@code broadcast_sub}). */
  Sym sub(Sym other);

  /** Element-wise product, broadcasting ({@code broadcast_mul}). */
  Sym mul(Sym other);

  /** Element-wise quotient, broadcasting ({@code broadcast_div}). */
  Sym div(Sym other);

  /** Every element times {@code factor} ({@code _mul_scalar}). */
  Sym scale(float factor);

  /** Element-wise activation ({@code Activation}). */
  Sym activation(Act act);

  /** Element-wise {@code exp}. */
  Sym exp();

  /** Reverses the axes ({@code transpose}); for a matrix, its transpose. */
  Sym transpose();

  /** Sums over {@code axis}, removing it ({@code sum}). */
  Sym sum(int axis);

  /**
   * One matrix product per leading index (MXNet's {@code batch_dot}): {@code [.., n, k] · [.., k,
   * m] -> [.., n, m]}, both of one rank (3 or more) and the same leading dimensions; with {@code
   * transposeOther}, {@code other} is {@code [.., m, k]} and its last two axes are swapped first.
   */
  Sym batchDot(Sym other, boolean transposeOther);

  /** Softmax over {@code axis}, every slice along it summing to 1 ({@code softmax}). */
  Sym softmax(int axis);

  /**
   * The same values in a new shape ({@code Reshape}): {@code shape} holds the sizes, {@code
   * Dim.BATCH} (-1) for the one size inferred from the rest, and the number of values must stay the
   * same for every batch size.
   */
  Sym reshape(int... shape);
}
