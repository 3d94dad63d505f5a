package dev.kiln.bench;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import java.util.ArrayList;
import java.util.List;

/**
 * The networks of the benchmark written by hand as MXNet symbols, node for node and attribute for
 * attribute what Kiln's classifier graph of the same model is (names included, so the kernels and
 * their order are the same), with the shapes of their arguments and auxiliary states.
 */
enum FloorNet {
  /** {@code FashionMlp}: 784-128 relu-10. */
  MLP {
    @Override
    Pointer build(Symbols s) {
      Pointer hidden = s.fc("hidden", s.var("pixels"), 128);
      Pointer relu =
          s.op("Activation", "hidden_relu", kv("act_type", "relu"), args("data"), hidden);
      return s.softmaxOutput(s.fc("logits", relu, 10));
    }

    @Override
    int[] shape(String name, int batch) {
      return switch (name) {
        case "pixels" -> new int[] {batch, 784};
        case "hidden_weight" -> new int[] {128, 784};
        case "hidden_bias" -> new int[] {128};
        case "logits_weight" -> new int[] {10, 128};
        case "logits_bias" -> new int[] {10};
        default -> common(name, batch);
      };
    }
  },
  /** {@code FashionLeNet}: conv 20 and 50 filters without bias, batch norm, relu, max pool. */
  LENET {
    @Override
    Pointer build(Symbols s) {
      Pointer x = s.var("image");
      x = s.pool("pool1", s.relu("relu1", s.bn("bn1", s.conv("conv1", x, 20, true))));
      x = s.pool("pool2", s.relu("relu2", s.bn("bn2", s.conv("conv2", x, 50, true))));
      x =
          s.op(
              "Activation",
              "hidden_relu",
              kv("act_type", "relu"),
              args("data"),
              s.fc("hidden", x, 256));
      return s.softmaxOutput(s.fc("logits", x, 10));
    }

    @Override
    int[] shape(String name, int batch) {
      return switch (name) {
        case "image" -> new int[] {batch, 1, 28, 28};
        case "conv1_weight" -> new int[] {20, 1, 5, 5};
        case "conv2_weight" -> new int[] {50, 20, 5, 5};
        case "hidden_weight" -> new int[] {256, 800};
        case "hidden_bias" -> new int[] {256};
        case "logits_weight" -> new int[] {10, 256};
        case "logits_bias" -> new int[] {10};
        default ->
            name.startsWith("bn1_")
                ? new int[] {20}
                : name.startsWith("bn2_") ? new int[] {50} : common(name, batch);
      };
    }
  },
  /** {@code LeNet1632}: conv 16 and 32 filters with bias and relu, batch norm after the first. */
  LENET1632 {
    @Override
    Pointer build(Symbols s) {
      Pointer x = s.var("image");
      x = s.relu("conv1_relu", s.conv("conv1", x, 16, false));
      x = s.pool("pool1", s.bn("bn1", x));
      x = s.pool("pool2", s.relu("conv2_relu", s.conv("conv2", x, 32, false)));
      x =
          s.op(
              "Activation",
              "hidden_relu",
              kv("act_type", "relu"),
              args("data"),
              s.fc("hidden", x, 64));
      return s.softmaxOutput(s.fc("logits", x, 10));
    }

    @Override
    int[] shape(String name, int batch) {
      return switch (name) {
        case "image" -> new int[] {batch, 1, 28, 28};
        case "conv1_weight" -> new int[] {16, 1, 5, 5};
        case "conv1_bias" -> new int[] {16};
        case "conv2_weight" -> new int[] {32, 16, 5, 5};
        case "conv2_bias" -> new int[] {32};
        case "hidden_weight" -> new int[] {64, 512};
        case "hidden_bias" -> new int[] {64};
        case "logits_weight" -> new int[] {10, 64};
        case "logits_bias" -> new int[] {10};
        default -> name.startsWith("bn1_") ? new int[] {16} : common(name, batch);
      };
    }
  },
  /**
   * {@code FashionLstm}: the 28 rows as steps into MXNet's fused {@code RNN} (LSTM, 128 units), its
   * final hidden state into a dense layer of 10.
   */
  LSTM {
    @Override
    Pointer build(Symbols s) {
      Pointer tnc =
          s.op(
              "SwapAxis", "encoded_tnc", kv("dim1", "0", "dim2", "1"), args("data"), s.var("rows"));
      Pointer rnn =
          s.op(
              "RNN",
              "encoded",
              kv(
                  "bidirectional",
                  "False",
                  "mode",
                  "lstm",
                  "num_layers",
                  "1",
                  "p",
                  "0.0",
                  "state_outputs",
                  "True",
                  "state_size",
                  "128"),
              args("data", "parameters", "state", "state_cell"),
              tnc,
              s.var("encoded_parameters"),
              s.var("encoded_state"),
              s.var("encoded_state_cell"));
      Pointer last =
          s.op(
              "slice_axis",
              "encoded_final",
              kv("axis", "0", "begin", "0", "end", "1"),
              args("data"),
              s.output(rnn, 1));
      last =
          s.op("SwapAxis", "encoded_final_ndh", kv("dim1", "0", "dim2", "1"), args("data"), last);
      last = s.op("Reshape", "encoded_last", kv("shape", "(0,-1)"), args("data"), last);
      return s.softmaxOutput(s.fc("logits", last, 10));
    }

    @Override
    int[] shape(String name, int batch) {
      return switch (name) {
        case "rows" -> new int[] {batch, 28, 28};
        // 4 gates x 128 x (28 inputs + 128 recurrent) weights, then 2 x 4 x 128 biases.
        case "encoded_parameters" -> new int[] {4 * 128 * (28 + 128) + 2 * 4 * 128};
        case "encoded_state", "encoded_state_cell" -> new int[] {1, batch, 128};
        case "logits_weight" -> new int[] {10, 128};
        case "logits_bias" -> new int[] {10};
        default -> common(name, batch);
      };
    }

    @Override
    boolean trainable(String name) {
      return !name.startsWith("encoded_state");
    }
  };

  /** Builds the symbol with {@code s}; returns the head ({@code SoftmaxOutput} "probs"). */
  abstract Pointer build(Symbols s);

  /** The shape of argument or auxiliary state {@code name} at {@code batch} examples a step. */
  abstract int[] shape(String name, int batch);

  /** Whether argument {@code name} (not the data or the label) is trained. */
  boolean trainable(String name) {
    return true;
  }

  /**
   * The floor of a benchmark workload.
   *
   * @throws IllegalArgumentException for the ViT, which has no hand-written floor ({@link Impl#of}
   *     measures it against DJL and its hand-written attention instead)
   */
  static FloorNet of(Workload w) {
    return switch (w) {
      case MLP -> MLP;
      case LENET -> LENET;
      case LENET1632 -> LENET1632;
      case LSTM -> LSTM;
      case VIT -> throw new IllegalArgumentException("the ViT has no hand-written floor");
    };
  }

  private static int[] common(String name, int batch) {
    if (name.equals("probs_label")) {
      return new int[] {batch};
    }
    throw new IllegalStateException("unexpected argument " + name);
  }

  private static String[] kv(String... keysAndValues) {
    return keysAndValues;
  }

  private static String[] args(String... names) {
    return names;
  }

  /** Makes symbols through the C API and frees every one of them in {@link #close()}. */
  static final class Symbols implements AutoCloseable {
    private final FloorApi mx;
    private final List<Pointer> made = new ArrayList<>();

    /** Symbols made through {@code mx}. */
    Symbols(FloorApi mx) {
      this.mx = mx;
    }

    /** A variable. */
    Pointer var(String name) {
      PointerByReference ref = new PointerByReference();
      mx.check(mx.api().MXSymbolCreateVariable(name, ref), "MXSymbolCreateVariable");
      made.add(ref.getValue());
      return ref.getValue();
    }

    /** Operator {@code op} named {@code name}, keys and values interleaved in {@code kv}. */
    Pointer op(String op, String name, String[] kv, String[] argNames, Pointer... inputs) {
      String[] keys = new String[kv.length / 2];
      String[] vals = new String[kv.length / 2];
      for (int i = 0; i < keys.length; i++) {
        keys[i] = kv[2 * i];
        vals[i] = kv[2 * i + 1];
      }
      PointerByReference ref = new PointerByReference();
      mx.check(
          mx.api().MXSymbolCreateAtomicSymbol(mx.op(op), keys.length, keys, vals, ref),
          "MXSymbolCreateAtomicSymbol(" + op + ")");
      made.add(ref.getValue());
      mx.check(
          mx.api().MXSymbolCompose(ref.getValue(), name, inputs.length, argNames, inputs),
          "MXSymbolCompose(" + name + ")");
      return ref.getValue();
    }

    /** Output {@code index} of a multi-output symbol. */
    Pointer output(Pointer symbol, int index) {
      PointerByReference ref = new PointerByReference();
      mx.check(mx.api().MXSymbolGetOutput(symbol, index, ref), "MXSymbolGetOutput");
      made.add(ref.getValue());
      return ref.getValue();
    }

    /** {@code FullyConnected} of {@code units} with bias, weights {@code <name>_weight}. */
    Pointer fc(String name, Pointer x, int units) {
      return op(
          "FullyConnected",
          name,
          kv("flatten", "True", "no_bias", "False", "num_hidden", Integer.toString(units)),
          args("data", "weight", "bias"),
          x,
          var(name + "_weight"),
          var(name + "_bias"));
    }

    /** A 5x5 {@code Convolution} of {@code filters}, stride 1, no padding. */
    Pointer conv(String name, Pointer x, int filters, boolean noBias) {
      String[] kv =
          kv(
              "dilate",
              "(1,1)",
              "kernel",
              "(5,5)",
              "no_bias",
              noBias ? "True" : "False",
              "num_filter",
              Integer.toString(filters),
              "pad",
              "(0,0)",
              "stride",
              "(1,1)");
      return noBias
          ? op("Convolution", name, kv, args("data", "weight"), x, var(name + "_weight"))
          : op(
              "Convolution",
              name,
              kv,
              args("data", "weight", "bias"),
              x,
              var(name + "_weight"),
              var(name + "_bias"));
    }

    /** {@code BatchNorm} over the channels as Kiln emits it (eps 0.001, momentum 0.9). */
    Pointer bn(String name, Pointer x) {
      return op(
          "BatchNorm",
          name,
          kv("axis", "1", "eps", "0.001", "fix_gamma", "False", "momentum", "0.9"),
          args("data", "gamma", "beta", "moving_mean", "moving_var"),
          x,
          var(name + "_gamma"),
          var(name + "_beta"),
          var(name + "_moving_mean"),
          var(name + "_moving_var"));
    }

    /** {@code Activation} relu. */
    Pointer relu(String name, Pointer x) {
      return op("Activation", name, kv("act_type", "relu"), args("data"), x);
    }

    /** 2x2 max {@code Pooling}, stride 2. */
    Pointer pool(String name, Pointer x) {
      return op(
          "Pooling",
          name,
          kv(
              "kernel",
              "(2,2)",
              "pad",
              "(0,0)",
              "pool_type",
              "max",
              "pooling_convention",
              "valid",
              "stride",
              "(2,2)"),
          args("data"),
          x);
    }

    /** The classifier head: {@code SoftmaxOutput} "probs" with label {@code probs_label}. */
    Pointer softmaxOutput(Pointer logits) {
      return op(
          "SoftmaxOutput",
          "probs",
          kv("normalization", "batch", "preserve_shape", "True"),
          args("data", "label"),
          logits,
          var("probs_label"));
    }

    @Override
    public void close() {
      for (Pointer p : made) {
        mx.api().MXSymbolFree(p);
      }
      made.clear();
    }
  }
}
