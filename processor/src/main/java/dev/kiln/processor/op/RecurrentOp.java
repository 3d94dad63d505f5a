package dev.kiln.processor.op;

import static dev.kiln.processor.op.Args.chain;
import static dev.kiln.processor.op.Args.d;
import static dev.kiln.processor.op.Args.i;
import static dev.kiln.processor.op.Args.x;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.Gru;
import dev.kiln.annotations.Lstm;
import dev.kiln.annotations.Rnn;
import dev.kiln.names.ParamRole;
import dev.kiln.names.RnnCell;
import dev.kiln.names.StateRole;
import dev.kiln.processor.diag.Message;
import dev.kiln.processor.model.AttributeSite;
import dev.kiln.processor.model.CallSite;
import dev.kiln.processor.model.Inferred;
import dev.kiln.processor.model.NodeCall;
import dev.kiln.processor.model.Op;
import dev.kiln.processor.model.ShapeSite;
import dev.kiln.processor.model.TShape;
import java.util.List;

/**
 * {@code @Rnn}, {@code @Lstm} or {@code @Gru}: MXNet's fused {@code RNN} operator behind a
 * batch-first wrapper, one flat parameter vector {@code <node>_parameters} in MXNet's layout.
 *
 * @param cell MXNet's cell
 * @param units the hidden state's size per direction
 * @param layers stacked layers
 * @param bidirectional whether each layer also reads the sequence reversed
 * @param dropout dropout between stacked layers in training
 * @param returnSequences every step, or the last one only
 * @param stateful whether the final state is carried into the next call
 * @param activation {@code @Rnn}'s activation as written (TANH for the others)
 * @param timeMajor whether the input is MXNet's time-major {@code [T, N, features]} and the output
 *     {@code [T, N, units·dirs]}, unswapped: an imported file's {@code RNN} node
 */
record RecurrentOp(
    RnnCell cell,
    int units,
    int layers,
    boolean bidirectional,
    double dropout,
    boolean returnSequences,
    boolean stateful,
    Act activation,
    boolean timeMajor)
    implements Op {
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
   * {@code this.builder.rnn(SRC, rows, ROWS_SHAPE, RnnSpec.lstm(128).lastStep())}: the input's
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
        chain("RnnSpec", factory, i(units))
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
                    : new NodeCall.Arg[] {new NodeCall.ShapeOf(site.sources().get(0))})
            .build();
    return NodeCall.Builder.of("node", spec, x());
  }
}
