package dev.kiln.e2e.imported;

import dev.kiln.runtime.mxnet.SymbolHandle;
import dev.kiln.sample.models.FashionMlpModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The symbol files the import tests read, written by MXNet itself (and one by Kiln, which writes
 * through MXNet too): each graph is composed through MXNet's C API ({@code
 * MXSymbolCreateAtomicSymbol}, {@code MXSymbolCompose}, which makes the weight and bias variables
 * with MXNet's own names, as {@code mx.sym} does) and saved with {@code MXSymbolSaveToJSON}. {@link
 * SymbolFilesTest} checks that the files under {@code src/test/resources} are what MXNet writes;
 * {@link #main} rewrites them.
 */
public final class SymbolFiles {
  /** Where the files live, relative to the module. */
  static final Path DIR = Path.of("src/test/resources/dev/kiln/e2e/imported");

  private SymbolFiles() {}

  /** The files by name, as MXNet writes them now. */
  static Map<String, String> all() {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("lenet-symbol.json", lenet());
    files.put("zoo-symbol.json", zoo());
    files.put("tokens-symbol.json", tokens());
    files.put("gluon-symbol.json", gluon());
    files.put("tensors-symbol.json", tensors());
    files.put("recurrent-symbol.json", recurrent());
    files.put("kiln-mlp-symbol.json", kilnMlp());
    files.put("tied-lstm-symbol.json", tiedLstm());
    files.put("heads-symbol.json", heads());
    files.put("batch-concat-symbol.json", batchConcat());
    files.put("unnamed-symbol.json", unnamed());
    files.put("fcn-symbol.json", fcn());
    return files;
  }

  /** Writes every file into {@link #DIR}. */
  public static void main(String[] args) throws IOException {
    for (Map.Entry<String, String> f : all().entrySet()) {
      Files.writeString(DIR.resolve(f.getKey()), f.getValue() + "\n", StandardCharsets.UTF_8);
    }
  }

  /**
   * A small fully convolutional network, for any image size: a padded convolution, batch norm and
   * ReLU, max pooling by 2, two branches (a padded 3×3 convolution, a 1×1 one) joined along the
   * channels, a transposed convolution back up by 2 with a leaky ReLU, and a 1×1 convolution
   * scoring 3 classes per pixel.
   */
  static String fcn() {
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      x = c.op("Convolution", "conv0", x, "kernel", "(3, 3)", "pad", "(1, 1)", "num_filter", "8");
      x = c.op("BatchNorm", "bn0", x, "fix_gamma", "False", "eps", "1e-5");
      x = c.op("Activation", "relu0", x, "act_type", "relu");
      x = c.op("Pooling", "pool0", x, "pool_type", "max", "kernel", "(2, 2)", "stride", "(2, 2)");
      SymbolHandle wide =
          c.op("Convolution", "conv1", x, "kernel", "(3, 3)", "pad", "(1, 1)", "num_filter", "8");
      wide = c.op("Activation", "relu1", wide, "act_type", "relu");
      SymbolHandle side = c.op("Convolution", "side", x, "kernel", "(1, 1)", "num_filter", "4");
      x =
          c.op(
              "Concat", "both", null, new SymbolHandle[] {wide, side}, "num_args", "2", "dim", "1");
      x =
          c.op(
              "Deconvolution",
              "up",
              x,
              "kernel",
              "(2, 2)",
              "stride",
              "(2, 2)",
              "num_filter",
              "6",
              "no_bias",
              "False");
      x = c.op("LeakyReLU", "leaky", x, "act_type", "leaky", "slope", "0.1");
      x = c.op("Convolution", "score", x, "kernel", "(1, 1)", "num_filter", "3");
      return x.toJson();
    }
  }

  /**
   * MXNet's classic LeNet ({@code example/image-classification/symbols/lenet.py}'s graph): two tanh
   * convolutions with max pooling, two fully connected layers, {@code SoftmaxOutput}.
   */
  static String lenet() {
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      x = c.op("Convolution", "conv1", x, "kernel", "(5, 5)", "num_filter", "20");
      x = c.op("Activation", "tanh1", x, "act_type", "tanh");
      x = c.op("Pooling", "pool1", x, "pool_type", "max", "kernel", "(2, 2)", "stride", "(2, 2)");
      x = c.op("Convolution", "conv2", x, "kernel", "(5, 5)", "num_filter", "50");
      x = c.op("Activation", "tanh2", x, "act_type", "tanh");
      x = c.op("Pooling", "pool2", x, "pool_type", "max", "kernel", "(2, 2)", "stride", "(2, 2)");
      x = c.op("Flatten", "flatten", x);
      x = c.op("FullyConnected", "fc1", x, "num_hidden", "500");
      x = c.op("Activation", "tanh3", x, "act_type", "tanh");
      x = c.op("FullyConnected", "fc2", x, "num_hidden", "10");
      x = c.op("SoftmaxOutput", "softmax", x);
      return x.toJson();
    }
  }

  /**
   * Image operators: plain, grouped and transposed convolutions, batch norm, leaky ReLUs of several
   * kinds, max, average and global pooling, concatenation, addition, dropout, dense layers and a
   * regression head ({@code LinearRegressionOutput}).
   */
  static String zoo() {
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      x = c.op("Convolution", "conv0", x, "kernel", "(3, 3)", "pad", "(1, 1)", "num_filter", "8");
      x = c.op("BatchNorm", "bn0", x, "fix_gamma", "False", "eps", "1e-5");
      x = c.op("LeakyReLU", "leaky0", x, "act_type", "leaky", "slope", "0.1");
      x = c.op("LRN", "lrn0", x, "nsize", "3", "alpha", "0.001");
      x =
          c.op(
              "Convolution",
              "grouped",
              x,
              "kernel",
              "(3, 3)",
              "pad",
              "(1, 1)",
              "num_filter",
              "8",
              "num_group",
              "2",
              "no_bias",
              "True");
      x = c.op("LeakyReLU", "elu0", x, "act_type", "elu");
      x =
          c.op(
              "Deconvolution",
              "up",
              x,
              "kernel",
              "(2, 2)",
              "stride",
              "(2, 2)",
              "num_filter",
              "4",
              "no_bias",
              "False");
      x = c.op("LeakyReLU", "prelu0", x, "act_type", "prelu");
      SymbolHandle max =
          c.op(
              "Pooling",
              "maxpool",
              x,
              "pool_type",
              "max",
              "kernel",
              "(3, 3)",
              "stride",
              "(2, 2)",
              "pooling_convention",
              "full");
      SymbolHandle avg =
          c.op("Pooling", "avgpool", x, "pool_type", "avg", "kernel", "(2, 2)", "stride", "(2, 2)");
      SymbolHandle both =
          c.op("Concat", "both", null, new SymbolHandle[] {max, avg}, "num_args", "2", "dim", "1");
      SymbolHandle side =
          c.op("Convolution", "side", x, "kernel", "(2, 2)", "stride", "(2, 2)", "num_filter", "8");
      x = c.op("elemwise_add", "sum", new String[] {"lhs", "rhs"}, new SymbolHandle[] {both, side});
      SymbolHandle gmp =
          c.op("Pooling", "gmp", x, "pool_type", "max", "global_pool", "True", "kernel", "(1, 1)");
      SymbolHandle gap =
          c.op("Pooling", "gap", x, "pool_type", "avg", "global_pool", "True", "kernel", "(1, 1)");
      x = c.op("_Plus", "pools", null, new SymbolHandle[] {gmp, gap});
      x = c.op("Flatten", "flat", x);
      x = c.op("Dropout", "drop", x, "p", "0.3");
      x = c.op("FullyConnected", "fc0", x, "num_hidden", "16");
      x = c.op("Activation", "softrelu0", x, "act_type", "softrelu");
      x = c.op("LeakyReLU", "gelu0", x, "act_type", "gelu");
      x = c.op("FullyConnected", "fc1", x, "num_hidden", "3");
      x = c.op("LinearRegressionOutput", "regression", x);
      return x.toJson();
    }
  }

  /**
   * Sequences: an embedding of token ids, a reshape, a 1-D convolution and a logistic head ({@code
   * LogisticRegressionOutput}).
   */
  static String tokens() {
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      x = c.op("Embedding", "embed", x, "input_dim", "20", "output_dim", "6");
      x = c.op("Reshape", "channels", x, "shape", "(0, 7, 6)");
      x = c.op("Convolution", "conv", x, "kernel", "(3,)", "num_filter", "5");
      x = c.op("Activation", "sigmoid", x, "act_type", "sigmoid");
      x = c.op("Pooling", "pool", x, "pool_type", "max", "kernel", "(2,)", "stride", "(1,)");
      x = c.op("Flatten", "flat", x);
      x = c.op("FullyConnected", "fc", x, "num_hidden", "2");
      x = c.op("LogisticRegressionOutput", "logistic", x);
      return x.toJson();
    }
  }

  /**
   * Recurrent layers as MXNet's Module API writes them ({@code mx.rnn.FusedRNNCell} unrolled over a
   * batch-first sequence): {@code SwapAxis} to time-major, a bidirectional two-layer LSTM with
   * dropout between its layers, a GRU, {@code SwapAxis} back, a mean over the steps and a
   * regression head. Each {@code RNN}'s parameter vector and initial states are the variables MXNet
   * makes for it ({@code lstm0_parameters}, {@code lstm0_state}, {@code lstm0_state_cell}).
   */
  static String recurrent() {
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      x = c.op("SwapAxis", "tnc", x, "dim1", "0", "dim2", "1");
      x =
          c.op(
              "RNN",
              "lstm0",
              x,
              "mode",
              "lstm",
              "state_size",
              "6",
              "num_layers",
              "2",
              "bidirectional",
              "True",
              "p",
              "0.2");
      SymbolHandle begin =
          c.op(
              "_zeros",
              "gru0_begin_state_0",
              new String[0],
              new SymbolHandle[0],
              "shape",
              "(1, 0, 3)");
      x =
          c.op(
              "RNN",
              "gru0",
              new String[] {"data", "state"},
              new SymbolHandle[] {x, begin},
              "mode",
              "gru",
              "state_size",
              "3",
              "num_layers",
              "1");
      x = c.op("swapaxes", "ntc", x, "dim1", "1", "dim2", "0");
      x = c.op("mean", "steps", x, "axis", "1");
      x = c.op("FullyConnected", "fc", x, "num_hidden", "2");
      x = c.op("LinearRegressionOutput", "out", x);
      return x.toJson();
    }
  }

  /**
   * A graph named as Gluon's {@code HybridBlock.export} names one: operators {@code
   * hybridsequential0_conv0_fwd}, parameters {@code hybridsequential0_conv0_weight}, a batch norm's
   * moving averages {@code ..._running_mean} and {@code ..._running_var}, a classifier head that is
   * a plain {@code softmax}.
   */
  static String gluon() {
    String p = "hybridsequential0_";
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      x =
          c.op(
              "Convolution",
              p + "conv0_fwd",
              new String[] {"data", "weight", "bias"},
              new SymbolHandle[] {x, c.variable(p + "conv0_weight"), c.variable(p + "conv0_bias")},
              "kernel",
              "(3, 3)",
              "num_filter",
              "4",
              "layout",
              "NCHW");
      x =
          c.op(
              "BatchNorm",
              p + "batchnorm0_fwd",
              new String[] {"data", "gamma", "beta", "moving_mean", "moving_var"},
              new SymbolHandle[] {
                x,
                c.variable(p + "batchnorm0_gamma"),
                c.variable(p + "batchnorm0_beta"),
                c.variable(p + "batchnorm0_running_mean"),
                c.variable(p + "batchnorm0_running_var")
              },
              "axis",
              "1",
              "eps",
              "1e-05",
              "momentum",
              "0.9",
              "fix_gamma",
              "False",
              "use_global_stats",
              "False");
      x = c.op("Activation", p + "relu0_fwd", x, "act_type", "relu");
      x = c.op("Flatten", p + "flatten0_flatten0", x);
      x =
          c.op(
              "FullyConnected",
              p + "dense0_fwd",
              new String[] {"data", "weight", "bias"},
              new SymbolHandle[] {
                x, c.variable(p + "dense0_weight"), c.variable(p + "dense0_bias")
              },
              "num_hidden",
              "5",
              "flatten",
              "True",
              "no_bias",
              "False");
      x = c.op("softmax", p + "softmax0_fwd", x, "axis", "-1");
      return x.toJson();
    }
  }

  /**
   * Tensor operators: {@code transpose}, {@code batch_dot}, the element-wise and broadcasting
   * arithmetic (composed as {@code _Mul} and {@code _Minus}, which MXNet saves under their current
   * names), {@code clip}, {@code slice_axis}, {@code mean} and {@code sum}, {@code SliceChannel}
   * (two outputs read, and two of four with {@code squeeze_axis}), to a regression head.
   */
  static String tensors() {
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      SymbolHandle a = c.op("FullyConnected", "proj", x, "num_hidden", "6", "flatten", "False");
      SymbolHandle t = c.op("transpose", "proj_t", a, "axes", "(0, 2, 1)");
      String[] two = {"lhs", "rhs"};
      SymbolHandle g = c.op("batch_dot", "gram", two, new SymbolHandle[] {a, t});
      SymbolHandle sq = c.op("_Mul", "square", two, new SymbolHandle[] {g, g});
      SymbolHandle diff = c.op("_Minus", "diff", two, new SymbolHandle[] {sq, g});
      SymbolHandle pos = c.op("clip", "bounded", g, "a_min", "1", "a_max", "5");
      SymbolHandle q = c.op("broadcast_div", "ratio", two, new SymbolHandle[] {diff, pos});
      SymbolHandle mx = c.op("broadcast_maximum", "larger", two, new SymbolHandle[] {q, g});
      SymbolHandle rows = c.op("slice_axis", "rows", mx, "axis", "1", "begin", "1", "end", "3");
      SymbolHandle mean = c.op("mean", "avg", rows, "axis", "2");
      SymbolHandle sum = c.op("sum", "total", rows, "axis", "(2,)", "keepdims", "False");
      SymbolHandle both = c.op("elemwise_add", "both", two, new SymbolHandle[] {mean, sum});
      SymbolHandle halves = c.op("SliceChannel", "halves", a, "num_outputs", "2", "axis", "2");
      SymbolHandle prod =
          c.op("_Mul", "prod", two, new SymbolHandle[] {c.output(halves, 0), c.output(halves, 1)});
      SymbolHandle red = c.op("sum", "red", prod, "axis", "2");
      SymbolHandle cols =
          c.op("SliceChannel", "cols", red, "num_outputs", "4", "axis", "1", "squeeze_axis", "1");
      SymbolHandle pair =
          c.op("_Plus", "pair", null, new SymbolHandle[] {c.output(cols, 0), c.output(cols, 3)});
      SymbolHandle col = c.op("Reshape", "col", pair, "shape", "(0, 1)");
      x = c.op("broadcast_mul", "scaled", two, new SymbolHandle[] {both, col});
      x = c.op("LinearRegressionOutput", "out", x);
      return x.toJson();
    }
  }

  /** Steps of {@link #tiedLstm()}, hidden units and features. */
  static final int TIED_STEPS = 3;

  static final int TIED_UNITS = 5;

  /**
   * An LSTM unrolled over 3 steps as MXNet's {@code mx.rnn.LSTMCell.unroll} writes one (and as an
   * OCR model's bucketed LSTM is published): the batch-first sequence {@code [N, 3, 4]} split into
   * steps ({@code SliceChannel} with {@code squeeze_axis}); per step {@code lstm_t<t>_i2h} and,
   * from the second step, {@code lstm_t<t>_h2h} ({@code FullyConnected}) summed, split into the
   * four gates, the cell and hidden states by element-wise products and sums; the three hidden
   * states concatenated. Every step reads the same four variables ({@code lstm_i2h_weight}, {@code
   * lstm_i2h_bias}, {@code lstm_h2h_weight}, {@code lstm_h2h_bias}): tied weights.
   */
  static String tiedLstm() {
    try (Composer c = new Composer()) {
      SymbolHandle data = c.variable("data");
      SymbolHandle i2hW = c.variable("lstm_i2h_weight");
      SymbolHandle i2hB = c.variable("lstm_i2h_bias");
      SymbolHandle h2hW = c.variable("lstm_h2h_weight");
      SymbolHandle h2hB = c.variable("lstm_h2h_bias");
      String[] fc = {"data", "weight", "bias"};
      String[] two = {"lhs", "rhs"};
      String units = Integer.toString(4 * TIED_UNITS);
      SymbolHandle steps =
          c.op(
              "SliceChannel",
              "lstm_steps",
              data,
              "num_outputs",
              Integer.toString(TIED_STEPS),
              "axis",
              "1",
              "squeeze_axis",
              "1");
      SymbolHandle h = null;
      SymbolHandle cell = null;
      SymbolHandle[] hidden = new SymbolHandle[TIED_STEPS];
      for (int t = 0; t < TIED_STEPS; t++) {
        String p = "lstm_t" + t + "_";
        SymbolHandle gates =
            c.op(
                "FullyConnected",
                p + "i2h",
                fc,
                new SymbolHandle[] {c.output(steps, t), i2hW, i2hB},
                "num_hidden",
                units);
        if (h != null) {
          SymbolHandle h2h =
              c.op(
                  "FullyConnected",
                  p + "h2h",
                  fc,
                  new SymbolHandle[] {h, h2hW, h2hB},
                  "num_hidden",
                  units);
          gates = c.op("elemwise_add", p + "plus0", two, new SymbolHandle[] {gates, h2h});
        }
        SymbolHandle slice = c.op("SliceChannel", p + "slice", gates, "num_outputs", "4");
        SymbolHandle in = c.op("Activation", p + "i", c.output(slice, 0), "act_type", "sigmoid");
        SymbolHandle forget =
            c.op("Activation", p + "f", c.output(slice, 1), "act_type", "sigmoid");
        SymbolHandle transform =
            c.op("Activation", p + "c", c.output(slice, 2), "act_type", "tanh");
        SymbolHandle out = c.op("Activation", p + "o", c.output(slice, 3), "act_type", "sigmoid");
        SymbolHandle fresh =
            c.op("elemwise_mul", p + "mul1", two, new SymbolHandle[] {in, transform});
        if (cell != null) {
          SymbolHandle kept =
              c.op("elemwise_mul", p + "mul0", two, new SymbolHandle[] {forget, cell});
          fresh = c.op("elemwise_add", p + "state", two, new SymbolHandle[] {kept, fresh});
        }
        cell = fresh;
        SymbolHandle squashed = c.op("Activation", p + "tanh", cell, "act_type", "tanh");
        h = c.op("elemwise_mul", p + "out", two, new SymbolHandle[] {out, squashed});
        hidden[t] = h;
      }
      return c.op(
              "Concat",
              "lstm_out",
              null,
              hidden,
              "num_args",
              Integer.toString(TIED_STEPS),
              "dim",
              "1")
          .toJson();
    }
  }

  /**
   * A file of three outputs, as MTCNN's P-Net is published, with the operators real files of that
   * family use: the input normalised by {@code _minus_scalar} and {@code _mul_scalar}, a
   * convolution, PReLU and pooling trunk, then a face probability ({@code SoftmaxActivation} over
   * the channels), a box regression, and a third head through {@code Crop} (like another node,
   * centred; and by {@code h_w} at an offset), {@code Cast} and the rest of the {@code _*_scalar}
   * family to a {@code SoftmaxActivation} over each example. Saved as MXNet saves a group.
   */
  static String heads() {
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      x = c.op("_minus_scalar", "sub", x, "scalar", "127.5");
      x = c.op("_mul_scalar", "scale", x, "scalar", "0.0078125");
      x = c.op("Convolution", "conv1", x, "kernel", "(3, 3)", "num_filter", "8");
      x = c.op("LeakyReLU", "prelu1", x, "act_type", "prelu");
      SymbolHandle pool =
          c.op("Pooling", "pool1", x, "pool_type", "max", "kernel", "(2, 2)", "stride", "(2, 2)");
      SymbolHandle trunk =
          c.op("Convolution", "conv2", pool, "kernel", "(3, 3)", "num_filter", "16");
      SymbolHandle score =
          c.op("Convolution", "conv4_1", trunk, "kernel", "(1, 1)", "num_filter", "2");
      SymbolHandle prob = c.op("SoftmaxActivation", "prob1", score, "mode", "channel");
      SymbolHandle box =
          c.op("Convolution", "conv4_2", trunk, "kernel", "(1, 1)", "num_filter", "4");
      SymbolHandle y =
          c.op(
              "Crop",
              "crop",
              null,
              new SymbolHandle[] {pool, trunk},
              "num_args",
              "2",
              "center_crop",
              "True");
      y = c.op("Cast", "cast", y, "dtype", "float32");
      y = c.op("_power_scalar", "square", y, "scalar", "2");
      y = c.op("_plus_scalar", "plus1", y, "scalar", "1");
      y = c.op("_rdiv_scalar", "inverse", y, "scalar", "1");
      y = c.op("_rminus_scalar", "complement", y, "scalar", "1");
      y = c.op("_div_scalar", "half", y, "scalar", "2");
      y = c.op("_maximum_scalar", "floor", y, "scalar", "0.1");
      y = c.op("_minimum_scalar", "ceiling", y, "scalar", "0.4");
      y =
          c.op(
              "Crop",
              "corner",
              null,
              new SymbolHandle[] {y},
              "num_args",
              "1",
              "h_w",
              "(2, 2)",
              "offset",
              "(1, 0)");
      y = c.op("Flatten", "flat", y);
      y = c.op("SoftmaxActivation", "misc", y);
      try (SymbolHandle group = SymbolHandle.group(new SymbolHandle[] {prob, box, y})) {
        return group.toJson();
      }
    }
  }

  /**
   * Names as MXNet 0.8's C++ API leaves them: a dense layer composed with an empty name, and two
   * activations of one name ({@code act}), which MXNet saves and loads as they are.
   */
  static String unnamed() {
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      String[] fc = {"data", "weight", "bias"};
      x =
          c.op(
              "FullyConnected",
              "",
              fc,
              new SymbolHandle[] {x, c.variable("fc0_weight"), c.variable("fc0_bias")},
              "num_hidden",
              "6");
      x = c.op("Activation", "act", x, "act_type", "tanh");
      x = c.op("Activation", "act", x, "act_type", "relu");
      x =
          c.op(
              "FullyConnected",
              "out",
              fc,
              new SymbolHandle[] {x, c.variable("fc1_weight"), c.variable("fc1_bias")},
              "num_hidden",
              "3");
      return x.toJson();
    }
  }

  /** Two activations of one input concatenated along the batch axis ({@code Concat}, dim 0). */
  static String batchConcat() {
    try (Composer c = new Composer()) {
      SymbolHandle x = c.variable("data");
      SymbolHandle relu = c.op("Activation", "relu", x, "act_type", "relu");
      SymbolHandle tanh = c.op("Activation", "tanh", x, "act_type", "tanh");
      return c.op(
              "Concat", "both", null, new SymbolHandle[] {relu, tanh}, "num_args", "2", "dim", "0")
          .toJson();
    }
  }

  /** Kiln's own export: the sample app's {@code FashionMlp}, as {@code save} writes its symbol. */
  static String kilnMlp() {
    try (FashionMlpModel model = FashionMlpModel.create()) {
      return model.symbolJson();
    }
  }

  /** Composes operators over one input each, as {@code mx.sym.Op(data=x, name=..., ...)} does. */
  static final class Composer implements AutoCloseable {
    private final List<SymbolHandle> made = new ArrayList<>();

    SymbolHandle variable(String name) {
      SymbolHandle v = SymbolHandle.variable(name);
      made.add(v);
      return v;
    }

    /** Output {@code index} of {@code s}, a node of several. */
    SymbolHandle output(SymbolHandle s, int index) {
      SymbolHandle o = s.output(index);
      made.add(o);
      return o;
    }

    /** {@code op} named {@code name} over {@code data}, with attributes key, value, ... */
    SymbolHandle op(String op, String name, SymbolHandle data, String... attrs) {
      return op(op, name, new String[] {"data"}, new SymbolHandle[] {data}, attrs);
    }

    /** {@code op} named {@code name} over {@code args} by keyword {@code keys}. */
    SymbolHandle op(String op, String name, String[] keys, SymbolHandle[] args, String... attrs) {
      String[] k = new String[attrs.length / 2];
      String[] v = new String[attrs.length / 2];
      for (int i = 0; i < k.length; i++) {
        k[i] = attrs[2 * i];
        v[i] = attrs[2 * i + 1];
      }
      SymbolHandle s = SymbolHandle.operator(op, k, v);
      made.add(s);
      s.compose(name, keys, args);
      return s;
    }

    @Override
    public void close() {
      made.forEach(SymbolHandle::close);
    }
  }
}
