package dev.kiln.runtime.exec;

import dev.kiln.ops.RnnLayout;
import dev.kiln.ops.RnnLayout.Block;
import dev.kiln.ops.RnnLayout.Gate;
import dev.kiln.ops.RnnLayout.Part;
import dev.kiln.runtime.graph.Shape;

/**
 * A fused recurrent layer's one flat parameter vector ({@code <node>_parameters}) seen gate by
 * gate: the weights and biases of a given layer, direction, part and gate, each readable and
 * writable in its own shape, {@code [units, in]}, {@code [units, units]} or {@code [units]}. Reads
 * copy out of, and writes go into, the one array every executor binds (see {@link RnnLayout} for
 * where each block lives).
 */
public final class RecurrentParameter {
  private final Parameter vector;
  private final RnnLayout layout;

  /** Gate views of {@code vector}, laid out as {@code layout}. */
  public RecurrentParameter(Parameter vector, RnnLayout layout) {
    this.vector = vector;
    this.layout = layout;
  }

  /** The flat vector itself, in MXNet's layout. */
  public Parameter vector() {
    return vector;
  }

  /** Where each block lives. */
  public RnnLayout layout() {
    return layout;
  }

  /** The matrix of {@code gate} in {@code part} of layer {@code layer}, direction {@code dir}. */
  public Block weight(int layer, int direction, Part part, Gate gate) {
    return block(layer, direction, part, gate, false);
  }

  /** The bias of {@code gate} in {@code part} of layer {@code layer}, direction {@code dir}. */
  public Block bias(int layer, int direction, Part part, Gate gate) {
    return block(layer, direction, part, gate, true);
  }

  /** The layout's block, or an error that names the model and this parameter. */
  private Block block(int layer, int direction, Part part, Gate gate, boolean bias) {
    try {
      return layout.block(layer, direction, part, gate, bias);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          vector.model() + " parameter " + vector.name() + ": " + e.getMessage(), e);
    }
  }

  /** The values of {@code block} (from {@link #weight} or {@link #bias}), row-major. */
  public float[] get(Block block) {
    float[] all = vector.get();
    float[] out = new float[(int) block.size()];
    System.arraycopy(all, (int) block.offset(), out, 0, out.length);
    return out;
  }

  /** Replaces the values of {@code block} (row-major, exactly its size); the rest stays. */
  public void set(Block block, float[] values) {
    if (values.length != block.size()) {
      throw new IllegalArgumentException(
          vector.model()
              + " parameter "
              + vector.name()
              + ": "
              + describe(block)
              + " of shape "
              + block.shape()
              + " takes "
              + block.size()
              + " values, got "
              + values.length);
    }
    float[] all = vector.get();
    System.arraycopy(values, 0, all, (int) block.offset(), values.length);
    vector.set(all);
  }

  /** The shape of {@code block}. */
  public Shape shape(Block block) {
    return Shape.of(block.shape());
  }

  private static String describe(Block b) {
    return (b.bias() ? "bias" : "weight")
        + " of gate "
        + b.gate()
        + " ("
        + b.part()
        + ", layer "
        + b.layer()
        + ", direction "
        + b.direction()
        + ")";
  }

  @Override
  public String toString() {
    return vector.name() + " as " + layout;
  }
}
