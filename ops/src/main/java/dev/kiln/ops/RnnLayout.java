package dev.kiln.ops;

import dev.kiln.names.RnnCell;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * Where each weight and bias of a fused recurrent layer lives in its one flat parameter vector, in
 * MXNet 1.9.1's own layout ({@code src/operator/rnn-inl.h}, {@code rnn_impl.h}): all weights first,
 * then all biases; each block ordered by layer, then direction (forward before reverse); within a
 * (layer, direction), the input-to-hidden matrix {@code [gates·units, in]} before the
 * hidden-to-hidden matrix {@code [gates·units, units]}, each row-major, and likewise the two bias
 * vectors {@code [gates·units]}. Gates are stacked in MXNet's order: LSTM input, forget, cell,
 * output; GRU reset, update, new. The first layer reads {@code inputSize} features, the others
 * {@code directions · units}.
 *
 * @param mode the cell
 * @param inputSize features per step of the first layer's input
 * @param units the hidden state's size (MXNet's {@code state_size})
 * @param layers stacked layers ({@code num_layers})
 * @param bidirectional whether each layer also runs over the reversed sequence
 */
public record RnnLayout(Mode mode, int inputSize, int units, int layers, boolean bidirectional) {
  /** The fused operator's cells, MXNet's {@code mode} attribute. */
  public enum Mode {
    /** {@code h' = tanh(W x + U h + b)}. */
    RNN_TANH(RnnCell.RNN_TANH, Gate.HIDDEN),
    /** {@code h' = relu(W x + U h + b)}. */
    RNN_RELU(RnnCell.RNN_RELU, Gate.HIDDEN),
    /** Long short-term memory, gates i, f, g, o. */
    LSTM(RnnCell.LSTM, Gate.INPUT, Gate.FORGET, Gate.CELL, Gate.OUTPUT),
    /** Gated recurrent unit, gates r, z, n. */
    GRU(RnnCell.GRU, Gate.RESET, Gate.UPDATE, Gate.NEW);

    private final RnnCell cell;
    private final List<Gate> gates;

    Mode(RnnCell cell, Gate... gates) {
      if (gates.length != cell.gates()) {
        throw new AssertionError(cell + " has " + cell.gates() + " gates, not " + gates.length);
      }
      this.cell = cell;
      this.gates = List.of(gates);
    }

    /** The mode of {@code cell}. */
    public static Mode of(RnnCell cell) {
      for (Mode m : values()) {
        if (m.cell == cell) {
          return m;
        }
      }
      throw new IllegalArgumentException("no fused mode for " + cell);
    }

    /** MXNet's name for it ({@code lstm}, ...). */
    public String mxnetName() {
      return cell.mode();
    }

    /** The cell as the processor and the runtime both know it. */
    public RnnCell cell() {
      return cell;
    }

    /** Its gates in MXNet's order. */
    public List<Gate> gates() {
      return gates;
    }
  }

  /** One gate's rows of a recurrent layer's matrices and biases. */
  public enum Gate {
    /** The plain recurrent cell's only transform. */
    HIDDEN,
    /** LSTM input gate {@code i}. */
    INPUT,
    /** LSTM forget gate {@code f}. */
    FORGET,
    /** LSTM cell candidate {@code g}. */
    CELL,
    /** LSTM output gate {@code o}. */
    OUTPUT,
    /** GRU reset gate {@code r}. */
    RESET,
    /** GRU update gate {@code z}. */
    UPDATE,
    /** GRU candidate {@code n}. */
    NEW
  }

  /** Which of a (layer, direction)'s two transforms. */
  public enum Part {
    /** Reads the step's input: {@code [units, in]} per gate. */
    INPUT_TO_HIDDEN,
    /** Reads the previous hidden state: {@code [units, units]} per gate. */
    HIDDEN_TO_HIDDEN
  }

  /**
   * One gate's matrix or bias within the flat vector.
   *
   * @param layer the layer, from 0
   * @param direction 0 forward, 1 reverse
   * @param part input-to-hidden or hidden-to-hidden
   * @param gate the gate
   * @param bias whether this is a bias vector ({@code [units]}) rather than a matrix
   * @param offset where it starts in the flat vector
   * @param shape {@code [units, cols]} for a matrix, {@code [units]} for a bias
   */
  public record Block(
      int layer, int direction, Part part, Gate gate, boolean bias, long offset, TShape shape) {
    /** The number of values. */
    public long size() {
      return shape.perExample();
    }
  }

  /** Checks the sizes. */
  public RnnLayout {
    if (inputSize < 1 || units < 1 || layers < 1) {
      throw new IllegalArgumentException(
          "a recurrent layer needs positive sizes, got input "
              + inputSize
              + ", units "
              + units
              + ", layers "
              + layers);
    }
  }

  /** 1, or 2 when bidirectional. */
  public int directions() {
    return bidirectional ? 2 : 1;
  }

  /** Gates per cell: 1, 4 (LSTM) or 3 (GRU). */
  public int gates() {
    return mode.gates().size();
  }

  /** Features each step of layer {@code layer} reads. */
  public int layerInput(int layer) {
    return layer == 0 ? inputSize : directions() * units;
  }

  /** The flat vector's length, MXNet's {@code GetRnnParamSize} ({@link RnnCell#parameterCount}). */
  public long size() {
    return mode.cell().parameterCount(inputSize, units, layers, directions());
  }

  /** Every gate's matrices, then every gate's biases, in the vector's order. */
  public List<Block> blocks() {
    List<Block> blocks = new ArrayList<>();
    long at = 0;
    for (int l = 0; l < layers; l++) {
      for (int d = 0; d < directions(); d++) {
        for (Part part : Part.values()) {
          int cols = part == Part.INPUT_TO_HIDDEN ? layerInput(l) : units;
          for (Gate g : mode.gates()) {
            blocks.add(new Block(l, d, part, g, false, at, TShape.of(units, cols)));
            at += (long) units * cols;
          }
        }
      }
    }
    for (int l = 0; l < layers; l++) {
      for (int d = 0; d < directions(); d++) {
        for (Part part : Part.values()) {
          for (Gate g : mode.gates()) {
            blocks.add(new Block(l, d, part, g, true, at, TShape.of(units)));
            at += units;
          }
        }
      }
    }
    if (at != size()) {
      throw new IllegalStateException("layout of " + this + " covers " + at + " of " + size());
    }
    return blocks;
  }

  /** The block of one gate's matrix ({@code bias} false) or bias. */
  public Block block(int layer, int direction, Part part, Gate gate, boolean bias) {
    if (layer < 0 || layer >= layers || direction < 0 || direction >= directions()) {
      throw new IllegalArgumentException(
          "no layer "
              + layer
              + ", direction "
              + direction
              + " in "
              + describe()
              + " (layers 0 to "
              + (layers - 1)
              + ", directions 0 to "
              + (directions() - 1)
              + ")");
    }
    if (!mode.gates().contains(gate)) {
      throw new IllegalArgumentException(
          "a " + mode.mxnetName() + " layer has gates " + mode.gates() + ", not " + gate);
    }
    for (Block b : blocks()) {
      if (b.layer() == layer
          && b.direction() == direction
          && b.part() == part
          && b.gate() == gate
          && b.bias() == bias) {
        return b;
      }
    }
    throw new IllegalStateException("no block for " + gate);
  }

  /**
   * Where layer {@code layer}'s weights start and how many there are, then where its biases start
   * and how many: the two runs of the vector a one-layer operator for that layer reads.
   */
  public long[] layerRuns(int layer) {
    long weightStart = -1;
    long weights = 0;
    long biasStart = -1;
    long biases = 0;
    for (Block b : blocks()) {
      if (b.layer() != layer) {
        continue;
      }
      if (b.bias()) {
        biasStart = biasStart < 0 ? b.offset() : biasStart;
        biases += b.size();
      } else {
        weightStart = weightStart < 0 ? b.offset() : weightStart;
        weights += b.size();
      }
    }
    return new long[] {weightStart, weights, biasStart, biases};
  }

  /** The layout of one layer of this one, as its own one-layer operator sees it. */
  public RnnLayout layer(int layer) {
    return new RnnLayout(mode, layerInput(layer), units, 1, bidirectional);
  }

  /** The state's shape for {@code batch}: {@code [layers · directions, batch, units]}. */
  public TShape stateShape(int batch) {
    return TShape.of(layers * directions(), batch, units);
  }

  /**
   * The input size for which a vector of {@code size} values fits {@code units}, {@code layers} and
   * {@code directions}, as MXNet's {@code FusedRNNCell.unpack_weights} recovers it, or -1.
   */
  public static int inputSizeFor(
      Mode mode, long size, int units, int layers, boolean bidirectional) {
    long s = (long) mode.gates().size() * units * (bidirectional ? 2 : 1);
    long rest = size - (layers - 1L) * ((bidirectional ? 2L : 1L) * units + units + 2L) * s;
    if (rest <= 0 || rest % s != 0) {
      return -1;
    }
    long in = rest / s - units - 2;
    return in >= 1 && in <= Integer.MAX_VALUE ? (int) in : -1;
  }

  private String describe() {
    return layers + "-layer " + (bidirectional ? "bidirectional " : "") + mode.mxnetName();
  }
}
