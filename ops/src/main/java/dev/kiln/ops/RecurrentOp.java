package dev.kiln.ops;

import static dev.kiln.ops.Args.chain;
import static dev.kiln.ops.Args.d;
import static dev.kiln.ops.Args.i;
import static dev.kiln.ops.Args.x;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Gru;
import dev.kiln.annotations.Lstm;
import dev.kiln.annotations.Rnn;
import dev.kiln.annotations.Sym;
import dev.kiln.names.ParamRole;
import dev.kiln.names.RnnCell;
import dev.kiln.names.StateRole;
import dev.kiln.ops.FileOps.Arg;
import dev.kiln.ops.FileOps.Mapped;
import dev.kiln.ops.emit.Attrs;
import dev.kiln.ops.emit.NodeCall;
import dev.kiln.ops.emit.NodeScope;
import dev.kiln.ops.rule.AttributeSite;
import dev.kiln.ops.rule.CallSite;
import dev.kiln.ops.rule.Inferred;
import dev.kiln.ops.rule.Message;
import dev.kiln.ops.rule.ShapeSite;
import dev.kiln.ops.rule.TShape;
import java.util.ArrayList;
import java.util.List;

/**
 * A recurrent layer ({@code @Rnn}, {@code @Lstm}, {@code @Gru}) over a batch-first sequence {@code
 * [N, T, in]}: MXNet's fused {@code RNN} operator, which is time-major, so the sequence is swapped
 * to {@code [T, N, in]} and back. Generated code writes {@code
 * RecurrentOp.lstm(128).layers(2).lastStep().over(ROWS_SHAPE)}, the input's shape as the processor
 * inferred it giving the features per step, which place each layer's runs of the flat vector. Unset
 * attributes keep the annotations' defaults (one layer, one direction, no dropout, every step
 * returned, not stateful).
 *
 * <p>One parameter, {@code <node>_parameters}, the flat vector of {@link RnnLayout}; state
 * arguments {@code <node>_state} (and an LSTM's {@code <node>_state_cell}), {@code [layers·dirs, N,
 * units]} (see the runtime's {@code StateSpec}). Output {@code [N, T, units·dirs]}, or with {@code
 * returnSequences} off the final hidden state of the last layer, {@code [N, units·dirs]} (forward
 * direction: its output at step T-1; reverse direction: at step 0). With dropout between stacked
 * layers, each layer is its own one-layer operator reading its runs of the flat vector, with {@code
 * Dropout} between them: oneDNN's fused kernel ignores the operator's {@code p} in MXNet 1.9.1.
 *
 * <p>At compile time: {@code @Rnn}, {@code @Lstm} or {@code @Gru}: MXNet's fused {@code RNN}
 * operator behind a batch-first wrapper, one flat parameter vector {@code <node>_parameters} in
 * MXNet's layout.
 *
 * @param cell MXNet's cell
 * @param units the hidden state's size per direction
 * @param layers stacked layers
 * @param bidirectional whether each layer also reads the sequence reversed
 * @param dropout dropout between stacked layers in training
 * @param returnSequences every step, or the last one only
 * @param stateful whether the final state is carried into the next call
 * @param activation {@code @Rnn}'s activation as written (TANH for the others)
 * @param input the input's shape as the processor inferred it, {@code [N, T, in]} ({@code [T, N,
 *     in]} when {@code timeMajor}), which places each layer's runs of the flat vector; empty until
 *     {@link #over} gives it
 * @param timeMajor whether the input is MXNet's time-major {@code [T, N, features]} and the output
 *     {@code [T, N, units·dirs]}, unswapped: an imported file's {@code RNN} node
 */
public record RecurrentOp(
    RnnCell cell,
    int units,
    int layers,
    boolean bidirectional,
    double dropout,
    boolean returnSequences,
    boolean stateful,
    Act activation,
    List<Integer> input,
    boolean timeMajor)
    implements LayerOp {
  /** Copies the input's shape. */
  public RecurrentOp {
    input = List.copyOf(input);
  }

  static final OpReader<Rnn> RNN_READER =
      OpReader.of(
          Rnn.class,
          r ->
              new RecurrentOp(
                  r.activation() == Act.RELU ? RnnCell.RNN_RELU : RnnCell.RNN_TANH,
                  r.units(),
                  r.layers(),
                  r.bidirectional(),
                  r.dropout(),
                  r.returnSequences(),
                  r.stateful(),
                  r.activation(),
                  List.of(),
                  false),
          "units",
          "activation",
          "layers",
          "bidirectional",
          "dropout",
          "returnSequences",
          "stateful");

  static final OpReader<Lstm> LSTM_READER =
      OpReader.of(
          Lstm.class,
          l ->
              new RecurrentOp(
                  RnnCell.LSTM,
                  l.units(),
                  l.layers(),
                  l.bidirectional(),
                  l.dropout(),
                  l.returnSequences(),
                  l.stateful(),
                  Act.TANH,
                  List.of(),
                  false),
          "units",
          "layers",
          "bidirectional",
          "dropout",
          "returnSequences",
          "stateful");

  static final OpReader<Gru> GRU_READER =
      OpReader.of(
          Gru.class,
          g ->
              new RecurrentOp(
                  RnnCell.GRU,
                  g.units(),
                  g.layers(),
                  g.bidirectional(),
                  g.dropout(),
                  g.returnSequences(),
                  g.stateful(),
                  Act.TANH,
                  List.of(),
                  false),
          "units",
          "layers",
          "bidirectional",
          "dropout",
          "returnSequences",
          "stateful");

  @Override
  public String annotation() {
    return switch (cell) {
      case LSTM -> "Lstm";
      case GRU -> "Gru";
      case RNN_TANH, RNN_RELU -> "Rnn";
    };
  }

  @Override
  public String mxnetOp() {
    return "RNN(" + cell.mode() + ")";
  }

  @Override
  public int arity() {
    return 1;
  }

  @Override
  public List<StateRole> carriedStates() {
    return stateful ? cell.states() : List.of();
  }

  @Override
  public boolean hasGateViews() {
    return true;
  }

  /** 1 or 2. */
  int directions() {
    return bidirectional ? 2 : 1;
  }

  @Override
  public void checkAttributes(AttributeSite site) {
    site.positive("units", units);
    site.positive("layers", layers);
    if (!(dropout >= 0 && dropout < 1)) {
      throw site.fail(
          Message.OUT_OF_RANGE,
          "dropout",
          site.prefix(),
          "dropout",
          "in [0, 1) (the probability of dropping a value between stacked layers in training)",
          dropout);
    }
    if (activation != Act.TANH && activation != Act.RELU) {
      throw site.fail(Message.RECURRENT_ACTIVATION, "activation", site.prefix(), activation.name());
    }
    if (stateful && bidirectional) {
      throw site.fail(Message.STATEFUL_BIDIRECTIONAL, "stateful", site.prefix());
    }
  }

  /**
   * MXNet {@code RNNShape} behind Kiln's batch-first wrapper: a rank-3 input {@code [N, T,
   * features]} (swapped to MXNet's time-major {@code [T, N, features]}), output {@code [N, T,
   * units·dirs]} or, with {@code returnSequences} off, {@code [N, units·dirs]}; one flat parameter
   * vector {@code <node>_parameters} of {@code GetRnnParamSize} values.
   */
  @Override
  public Inferred infer(ShapeSite site) {
    if (timeMajor) {
      return inferTimeMajor(site);
    }
    TShape s = site.shape();
    String layer = "@" + annotation();
    if (s.rank() != 3) {
      String hint = "";
      if (s.rank() == 2 && s.dim(1) > 0) {
        int side = (int) Math.round(Math.sqrt(s.dim(1)));
        hint =
            side * side == s.dim(1)
                ? "; to read each row as "
                    + side
                    + " steps of "
                    + side
                    + " features, reshape it "
                    + "first: @Reshape(shape = {BATCH, "
                    + side
                    + ", "
                    + side
                    + "})"
                : "; reshape it first, e.g. @Reshape(shape = {BATCH, steps, features})";
      }
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          layer,
          "3",
          "[BATCH, steps, features]",
          site.x().describe(),
          hint);
    }
    if (s.dim(0) == TShape.STEPS || s.dim(1) == TShape.BATCH) {
      throw site.fail(
          Message.SEQUENCE_LAYOUT,
          null,
          site.where(),
          layer,
          site.x().describe(),
          "BATCH comes first (Kiln swaps to MXNet's time-major layout itself); declare the input "
              + "as {BATCH, STEPS, "
              + s.asArguments().substring(s.asArguments().lastIndexOf(' ') + 1)
              + "}");
    }
    if (s.dim(2) < 0) {
      throw site.fail(
          Message.SEQUENCE_LAYOUT,
          null,
          site.where(),
          layer,
          site.x().describe(),
          "the features (the last dimension) must be known at compile time to shape the "
              + "parameters");
    }
    int width = units * directions();
    TShape out =
        returnSequences ? TShape.of(s.dim(0), s.dim(1), width) : TShape.of(s.dim(0), width);
    return inferred(site, out, s.dim(2));
  }

  /**
   * MXNet {@code RNNShape} itself, for an imported {@code RNN} node: a time-major input {@code [T,
   * N, features]} (the batch second, the features known), output {@code [T, N, units·dirs]}.
   */
  private Inferred inferTimeMajor(ShapeSite site) {
    TShape s = site.shape();
    if (s.rank() != 3 || s.dim(0) == TShape.BATCH || s.dim(2) < 0) {
      throw site.fail(
          Message.WRONG_RANK,
          null,
          site.where(),
          "MXNet's RNN",
          "3",
          "time-major [steps, BATCH, features] (the features known)",
          site.x().describe(),
          s.rank() == 3 && s.dim(0) == TShape.BATCH
              ? "; a file feeds it a batch-first sequence through SwapAxis(dim1=0, dim2=1)"
              : "");
    }
    return inferred(site, TShape.of(s.dim(0), s.dim(1), units * directions()), s.dim(2));
  }

  /** {@code out}, with the flat parameter vector for {@code features} per step. */
  private Inferred inferred(ShapeSite site, TShape out, int features) {
    long size = cell.parameterCount(features, units, layers, directions());
    if (size > Integer.MAX_VALUE) {
      throw site.fail(
          Message.OUT_OF_RANGE,
          "units",
          site.prefix(),
          "the parameter count",
          "at most " + Integer.MAX_VALUE,
          size);
    }
    return new Inferred(
        out, List.of(site.param(ParamRole.PARAMETERS, TShape.of((int) size))), List.of());
  }

  /**
   * Per step, each layer and direction multiplies the input and the previous state by its gate
   * matrices ({@code 2 · gates · units · (in + units)}), adds the biases and applies its gates and
   * cell ({@code ~ 4 · gates · units}); steps unknown at compile time count as one.
   */
  @Override
  public long flops(List<TShape> in, TShape out) {
    TShape x = in.get(0);
    long steps = Math.max(1, x.dim(timeMajor ? 0 : 1));
    long gu = (long) cell.gates() * units;
    long total = 0;
    for (int l = 0; l < layers; l++) {
      long input = l == 0 ? x.dim(2) : (long) directions() * units;
      total += directions() * (2 * gu * (input + units) + 4 * gu);
    }
    return steps * total;
  }

  /**
   * {@code this.builder.rnn(SRC, rows, ROWS_SHAPE, RecurrentOp.lstm(128).lastStep())}: the input's
   * shape constant gives the builder the features per step, which place each layer's runs of the
   * flat parameter vector (an imported node, which has no shape constant, gives its batch and
   * features: {@code .overTimeMajor(BATCH, 4)}).
   */
  @Override
  public NodeCall call(CallSite site) {
    String factory =
        switch (cell) {
          case LSTM -> "lstm";
          case GRU -> "gru";
          case RNN_RELU -> "relu";
          case RNN_TANH -> "tanh";
        };
    NodeCall.Chain spec =
        chain(RecurrentOp.class, factory, i(units))
            .when(layers != 1, "layers", i(layers))
            .when(bidirectional, "inBothDirections")
            .when(dropout != 0, "dropout", d(dropout))
            .when(!returnSequences, "lastStep")
            .when(stateful, "carryingState")
            .then(
                timeMajor ? "overTimeMajor" : "over",
                timeMajor
                    ? new NodeCall.Arg[] {
                      new NodeCall.Int(site.inputs().get(0).dim(1), true),
                      i(site.inputs().get(0).dim(2))
                    }
                    : site.inputs().get(0).dims().stream()
                        .map(d -> new NodeCall.Int(d, true))
                        .toArray(NodeCall.Arg[]::new))
            .build();
    return NodeCall.Builder.of("node", spec, x());
  }

  /** An LSTM of {@code units}. */
  public static RecurrentOp lstm(int units) {
    return of(RnnCell.LSTM, units, Act.TANH);
  }

  /** A GRU of {@code units}. */
  public static RecurrentOp gru(int units) {
    return of(RnnCell.GRU, units, Act.TANH);
  }

  /** A plain tanh recurrent layer of {@code units}. */
  public static RecurrentOp tanh(int units) {
    return of(RnnCell.RNN_TANH, units, Act.TANH);
  }

  /** A plain ReLU recurrent layer of {@code units}. */
  public static RecurrentOp relu(int units) {
    return of(RnnCell.RNN_RELU, units, Act.RELU);
  }

  private static RecurrentOp of(RnnCell cell, int units, Act activation) {
    return new RecurrentOp(cell, units, 1, false, 0, true, false, activation, List.of(), false);
  }

  /** This layer stacked {@code layers} deep. */
  public RecurrentOp layers(int layers) {
    return new RecurrentOp(
        cell,
        units,
        layers,
        bidirectional,
        dropout,
        returnSequences,
        stateful,
        activation,
        input,
        timeMajor);
  }

  /** This layer in both directions. */
  public RecurrentOp inBothDirections() {
    return new RecurrentOp(
        cell,
        units,
        layers,
        true,
        dropout,
        returnSequences,
        stateful,
        activation,
        input,
        timeMajor);
  }

  /** This layer with dropout {@code rate} between its stacked layers. */
  public RecurrentOp dropout(double rate) {
    return new RecurrentOp(
        cell,
        units,
        layers,
        bidirectional,
        rate,
        returnSequences,
        stateful,
        activation,
        input,
        timeMajor);
  }

  /** This layer returning only its last step. */
  public RecurrentOp lastStep() {
    return new RecurrentOp(
        cell, units, layers, bidirectional, dropout, false, stateful, activation, input, timeMajor);
  }

  /** This layer carrying its state from call to call. */
  public RecurrentOp carryingState() {
    return new RecurrentOp(
        cell,
        units,
        layers,
        bidirectional,
        dropout,
        returnSequences,
        true,
        activation,
        input,
        timeMajor);
  }

  /**
   * This layer over an input of shape {@code dims}, {@code [N, T, in]} ({@link TShape#BATCH} and
   * {@link TShape#STEPS} for sizes fixed at bind time).
   */
  public RecurrentOp over(int... dims) {
    return new RecurrentOp(
        cell,
        units,
        layers,
        bidirectional,
        dropout,
        returnSequences,
        stateful,
        activation,
        Window.of(dims),
        timeMajor);
  }

  /**
   * This layer over MXNet's time-major {@code [T, N, features]} of batch {@code batch} ({@link
   * TShape#BATCH} when it is the model's), unswapped, its output {@code [T, N, units·dirs]}: an
   * imported file's {@code RNN} node.
   */
  public RecurrentOp overTimeMajor(int batch, int features) {
    return new RecurrentOp(
        cell,
        units,
        layers,
        bidirectional,
        dropout,
        returnSequences,
        stateful,
        activation,
        List.of(TShape.STEPS, batch, features),
        true);
  }

  /** The fused operator's cell. */
  public RnnLayout.Mode mode() {
    return RnnLayout.Mode.of(cell);
  }

  /** The parameter layout for {@code inputSize} features per step. */
  public RnnLayout layout(int inputSize) {
    return new RnnLayout(mode(), inputSize, units, layers, bidirectional);
  }

  @Override
  public Sym build(NodeScope scope, List<Sym> inputs) {
    if (input.size() != 3 || input.get(2) < 1) {
      throw scope.refuse(
          "a recurrent layer needs a "
              + (timeMajor ? "[steps, BATCH, features]" : "[BATCH, steps, features]")
              + " input, got "
              + TShape.of(input.stream().mapToInt(Integer::intValue).toArray()));
    }
    refuseNativeKernel(scope);
    RnnLayout layout;
    try {
      layout = layout(input.get(2));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(scope.source() + ": " + e.getMessage(), e);
    }
    return new Emitter(scope, layout).emit(inputs.get(0));
  }

  /** The native RNN kernel's gradients are wrong under {@code grad_req} add: refuse it. */
  private static void refuseNativeKernel(NodeScope src) {
    for (String variable : new String[] {"MXNET_MKLDNN_ENABLED", "MXNET_USE_MKLDNN_RNN"}) {
      if ("0".equals(System.getenv(variable))) {
        throw src.refuse(
            "recurrent layers need MXNet's oneDNN RNN kernel, but "
                + variable
                + "=0 selects the native one, whose parameter gradients with grad_req add are "
                + "wrong in MXNet 1.9.1 (apache/mxnet#17898; with MXNET_MKLDNN_ENABLED=0 alone "
                + "the operator reads a state of the wrong kind); unset "
                + variable);
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
      this.lstm = cell == RnnCell.LSTM;
    }

    Sym emit(Sym x) {
      Sym params = scope.recurrent().parameters(layout);
      int n = input.get(timeMajor ? 1 : 0);
      int batch = n > 0 ? n : TShape.BATCH;
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

  /** How the layer is read: its annotations and the symbol-file operators it is. */
  static final Unit UNIT =
      Unit.of(RNN_READER, LSTM_READER, GRU_READER).file("RNN", List.of(), RecurrentOp::rnn);

  /**
   * MXNet's fused {@code RNN}, time-major as the file has it: data, the flat parameter vector and
   * the initial states (an LSTM's two), which Kiln starts from zeros.
   */
  static Mapped rnn(FileAttrs a) {
    a.ignore("state_outputs");
    a.require("projection_size", "None", "Kiln's recurrent layers have no projection");
    a.require("lstm_state_clip_min", "None", "Kiln's LSTM does not clip its cell");
    a.require("lstm_state_clip_max", "None", "Kiln's LSTM does not clip its cell");
    a.require("lstm_state_clip_nan", "False", "Kiln's LSTM does not clip its cell");
    a.require("use_sequence_length", "False", "Kiln's recurrent layers read every step");
    String mode = a.choice("mode", null, "rnn_relu", "rnn_tanh", "lstm", "gru");
    if (mode == null) {
      throw a.unsupported("mode", "an RNN needs its mode");
    }
    RnnCell cell =
        switch (mode) {
          case "rnn_relu" -> RnnCell.RNN_RELU;
          case "rnn_tanh" -> RnnCell.RNN_TANH;
          case "lstm" -> RnnCell.LSTM;
          default -> RnnCell.GRU;
        };
    Op op =
        new RecurrentOp(
            cell,
            a.integer("state_size", 0),
            a.integer("num_layers", 0),
            a.bool("bidirectional", false),
            a.decimal("p", 0),
            true,
            false,
            cell == RnnCell.RNN_RELU ? Act.RELU : Act.TANH,
            List.of(),
            true);
    List<Arg> args = new ArrayList<>(List.of(Arg.DATA, Arg.param(ParamRole.PARAMETERS), Arg.STATE));
    if (cell == RnnCell.LSTM) {
      args.add(Arg.STATE);
    }
    return new Mapped(op, args);
  }
}
