package dev.kiln.runtime.graph;

import dev.kiln.annotations.Sym;
import dev.kiln.names.StateRole;
import java.util.ArrayList;
import java.util.List;

/**
 * A recurrent layer ({@code @Rnn}, {@code @Lstm}, {@code @Gru}) over a batch-first sequence {@code
 * [N, T, in]}: MXNet's fused {@code RNN} operator, which is time-major, so the sequence is swapped
 * to {@code [T, N, in]} and back. Generated code writes {@code
 * RnnSpec.lstm(128).layers(2).lastStep().over(ROWS_SHAPE)}, the input's shape as the processor
 * inferred it giving the features per step, which place each layer's runs of the flat vector. Unset
 * attributes keep the annotations' defaults (one layer, one direction, no dropout, every step
 * returned, not stateful).
 *
 * <p>One parameter, {@code <node>_parameters}, the flat vector of {@link RnnLayout}; state
 * arguments {@code <node>_state} (and an LSTM's {@code <node>_state_cell}), {@code [layers·dirs, N,
 * units]} (see {@link StateSpec}). Output {@code [N, T, units·dirs]}, or with {@code
 * returnSequences} off the final hidden state of the last layer, {@code [N, units·dirs]} (forward
 * direction: its output at step T-1; reverse direction: at step 0). With dropout between stacked
 * layers, each layer is its own one-layer operator reading its runs of the flat vector, with {@code
 * Dropout} between them: oneDNN's fused kernel ignores the operator's {@code p} in MXNet 1.9.1.
 *
 * @param mode the cell
 * @param units the hidden state's size
 * @param layers stacked layers
 * @param bidirectional whether each layer also reads the sequence reversed
 * @param dropout dropout between stacked layers in training, in {@code [0, 1)}
 * @param returnSequences every step ({@code [N, T, units·dirs]}) or the last ({@code [N,
 *     units·dirs]})
 * @param stateful whether the final state is carried into the next call
 * @param input the input's shape, {@code [N, T, in]}, or null until {@link #over} gives it
 * @param timeMajor whether the input and output are MXNet's own time-major {@code [T, N, in]} and
 *     {@code [T, N, units·dirs]}, unswapped: an imported file's {@code RNN} node (every step
 *     returned, not stateful)
 */
public record RnnSpec(
    RnnLayout.Mode mode,
    int units,
    int layers,
    boolean bidirectional,
    double dropout,
    boolean returnSequences,
    boolean stateful,
    Shape input,
    boolean timeMajor)
    implements LayerOp {
  /** An LSTM of {@code units}. */
  public static RnnSpec lstm(int units) {
    return new RnnSpec(RnnLayout.Mode.LSTM, units, 1, false, 0, true, false, null, false);
  }

  /** A GRU of {@code units}. */
  public static RnnSpec gru(int units) {
    return new RnnSpec(RnnLayout.Mode.GRU, units, 1, false, 0, true, false, null, false);
  }

  /** A plain tanh recurrent layer of {@code units}. */
  public static RnnSpec tanh(int units) {
    return new RnnSpec(RnnLayout.Mode.RNN_TANH, units, 1, false, 0, true, false, null, false);
  }

  /** A plain ReLU recurrent layer of {@code units}. */
  public static RnnSpec relu(int units) {
    return new RnnSpec(RnnLayout.Mode.RNN_RELU, units, 1, false, 0, true, false, null, false);
  }

  /** This layer stacked {@code layers} deep. */
  public RnnSpec layers(int layers) {
    return new RnnSpec(
        mode, units, layers, bidirectional, dropout, returnSequences, stateful, input, timeMajor);
  }

  /** This layer in both directions. */
  public RnnSpec inBothDirections() {
    return new RnnSpec(
        mode, units, layers, true, dropout, returnSequences, stateful, input, timeMajor);
  }

  /** This layer with dropout {@code rate} between its stacked layers. */
  public RnnSpec dropout(double rate) {
    return new RnnSpec(
        mode, units, layers, bidirectional, rate, returnSequences, stateful, input, timeMajor);
  }

  /** This layer returning only its last step. */
  public RnnSpec lastStep() {
    return new RnnSpec(
        mode, units, layers, bidirectional, dropout, false, stateful, input, timeMajor);
  }

  /** This layer carrying its state from call to call. */
  public RnnSpec carryingState() {
    return new RnnSpec(
        mode, units, layers, bidirectional, dropout, returnSequences, true, input, timeMajor);
  }

  /** This layer over an input of shape {@code shape}, {@code [N, T, in]}. */
  public RnnSpec over(Shape shape) {
    return new RnnSpec(
        mode, units, layers, bidirectional, dropout, returnSequences, stateful, shape, timeMajor);
  }

  /**
   * This layer over MXNet's time-major {@code [T, N, features]} of batch {@code batch} ({@link
   * Shape#BATCH} when it is the model's), unswapped, its output {@code [T, N, units·dirs]}: an
   * imported file's {@code RNN} node.
   */
  public RnnSpec overTimeMajor(int batch, int features) {
    return new RnnSpec(
        mode,
        units,
        layers,
        bidirectional,
        dropout,
        returnSequences,
        stateful,
        Shape.of(Shape.STEPS, batch, features),
        true);
  }

  /** The parameter layout for {@code inputSize} features per step. */
  public RnnLayout layout(int inputSize) {
    return new RnnLayout(mode, inputSize, units, layers, bidirectional);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    NodeSource src = scope.source();
    if (input == null || input.rank() != 3 || input.dim(2) < 1) {
      throw new ModelException(
          src,
          src
              + ": a recurrent layer needs a "
              + (timeMajor ? "[steps, BATCH, features]" : "[BATCH, steps, features]")
              + " input, got "
              + input,
          null);
    }
    refuseNativeKernel(src);
    RnnLayout layout;
    try {
      layout = layout(input.dim(2));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(src + ": " + e.getMessage(), e);
    }
    return new Emitter(scope, layout).emit(inputs.get(0));
  }

  /** The native RNN kernel's gradients are wrong under {@code grad_req} add: refuse it. */
  private static void refuseNativeKernel(NodeSource src) {
    for (String variable : new String[] {"MXNET_MKLDNN_ENABLED", "MXNET_USE_MKLDNN_RNN"}) {
      if ("0".equals(System.getenv(variable))) {
        throw new ModelException(
            src,
            src
                + ": recurrent layers need MXNet's oneDNN RNN kernel, but "
                + variable
                + "=0 selects the native one, whose parameter gradients with grad_req add are "
                + "wrong in MXNet 1.9.1 (apache/mxnet#17898; with MXNET_MKLDNN_ENABLED=0 alone "
                + "the operator reads a state of the wrong kind); unset "
                + variable,
            null);
      }
    }
  }

  /** The operators of one recurrent node. */
  private final class Emitter {
    private final NodeScope scope;
    private final RnnLayout layout;
    private final String node;
    private final boolean lstm;

    Emitter(NodeScope scope, RnnLayout layout) {
      this.scope = scope;
      this.layout = layout;
      this.node = scope.node();
      this.lstm = mode == RnnLayout.Mode.LSTM;
    }

    Sym emit(Sym x) {
      Sym params = scope.recurrent().parameters(layout);
      int n = input.dim(timeMajor ? 1 : 0);
      int batch = n > 0 ? n : Shape.BATCH;
      Sym state = scope.recurrent().state(StateRole.HIDDEN, layout, batch);
      Sym cell = lstm ? scope.recurrent().state(StateRole.CELL, layout, batch) : null;
      Sym data = timeMajor ? x : swap(node + "_tnc", x);
      Sym[] result =
          layers == 1 || dropout == 0
              ? fused(data, params, state, cell)
              : layered(data, params, state, cell);
      Sym out = result[0];
      Sym hy = result[1];
      if (stateful) {
        scope.recurrent().carry(StateRole.HIDDEN, hy);
        if (lstm) {
          scope.recurrent().carry(StateRole.CELL, result[2]);
        }
      }
      if (returnSequences) {
        return timeMajor ? out : swap(node + "_ntc", out);
      }
      int dirs = layout.directions();
      int rows = layout.layers() * dirs;
      Sym last = slice(node + "_final", hy, rows - dirs, rows);
      Sym batchFirst = swap(node + "_final_ndh", last);
      return scope.op(
          "Reshape",
          node + "_last",
          Attrs.of("shape", "(0,-1)"),
          List.of("data"),
          List.of(batchFirst));
    }

    /** One operator for every layer: output, final hidden state and an LSTM's final cell. */
    private Sym[] fused(Sym data, Sym params, Sym state, Sym cell) {
      Sym rnn = rnnOp(node, layout, data, params, state, cell);
      return new Sym[] {
        scope.output(rnn, 0), scope.output(rnn, 1), lstm ? scope.output(rnn, 2) : null
      };
    }

    /** One operator per layer with dropout between them, each reading its runs of the vector. */
    private Sym[] layered(Sym data, Sym params, Sym state, Sym cell) {
      int dirs = layout.directions();
      List<Sym> hys = new ArrayList<>();
      List<Sym> cys = new ArrayList<>();
      Sym in = data;
      for (int l = 0; l < layers; l++) {
        String name = node + "_l" + l;
        long[] runs = layout.layerRuns(l);
        Sym w = slice(name + "_weights", params, runs[0], runs[0] + runs[1]);
        Sym b = slice(name + "_biases", params, runs[2], runs[2] + runs[3]);
        Sym p =
            scope.op(
                "Concat",
                name + "_parameters",
                Attrs.of("num_args", 2, "dim", 0),
                null,
                List.of(w, b));
        Sym h0 = slice(name + "_state", state, (long) l * dirs, (long) (l + 1) * dirs);
        Sym c0 =
            lstm ? slice(name + "_state_cell", cell, (long) l * dirs, (long) (l + 1) * dirs) : null;
        Sym rnn = rnnOp(name, layout.layer(l), in, p, h0, c0);
        in = scope.output(rnn, 0);
        hys.add(scope.output(rnn, 1));
        if (lstm) {
          cys.add(scope.output(rnn, 2));
        }
        if (l < layers - 1) {
          in =
              scope.op(
                  "Dropout",
                  name + "_dropout",
                  Attrs.of("p", dropout),
                  List.of("data"),
                  List.of(in));
        }
      }
      Sym hy = concat(node + "_state_output", hys);
      Sym cy = lstm ? concat(node + "_statecell_output", cys) : null;
      return new Sym[] {in, hy, cy};
    }

    private Sym rnnOp(String name, RnnLayout l, Sym data, Sym params, Sym state, Sym cell) {
      List<String> keys = new ArrayList<>(List.of("data", "parameters", "state"));
      List<Sym> args = new ArrayList<>(List.of(data, params, state));
      if (cell != null) {
        keys.add("state_cell");
        args.add(cell);
      }
      return scope.op(
          "RNN",
          name,
          Attrs.of(
              "mode",
              l.mode().mxnetName(),
              "state_size",
              l.units(),
              "num_layers",
              l.layers(),
              "bidirectional",
              l.bidirectional(),
              "p",
              0.0,
              "state_outputs",
              true),
          keys,
          args);
    }

    private Sym swap(String name, Sym x) {
      return scope.op(
          "SwapAxis", name, Attrs.of("dim1", 0, "dim2", 1), List.of("data"), List.of(x));
    }

    private Sym slice(String name, Sym x, long begin, long end) {
      return scope.op(
          "slice_axis",
          name,
          Attrs.of("axis", 0, "begin", begin, "end", end),
          List.of("data"),
          List.of(x));
    }

    private Sym concat(String name, List<Sym> parts) {
      return scope.op("Concat", name, Attrs.of("num_args", parts.size(), "dim", 0), null, parts);
    }
  }
}
