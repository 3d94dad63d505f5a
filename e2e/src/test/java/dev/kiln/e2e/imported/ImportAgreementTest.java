package dev.kiln.e2e.imported;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.KilnModel;
import dev.kiln.runtime.TestJvm;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Imported models compute what MXNet computes: each is compared with MXNet's own executor bound
 * from the same symbol file and the same arrays, with oneDNN on and, in a child JVM, off.
 */
class ImportAgreementTest {
  /** Largest difference allowed between Kiln's output and MXNet's. */
  private static final double TOLERANCE = 1e-5;

  @Test
  void theSymbolFilesAreWhatMxnetWrites() throws IOException {
    for (Map.Entry<String, String> f : SymbolFiles.all().entrySet()) {
      String stored = Files.readString(SymbolFiles.DIR.resolve(f.getKey()), StandardCharsets.UTF_8);
      assertEquals(f.getValue(), stored.strip(), f.getKey() + " (rewrite with SymbolFiles.main)");
    }
  }

  /** Each imported model, with its file and the shape of a batch. */
  enum Case {
    /** MXNet's LeNet, saved by MXNet 1.9.1. */
    LENET("lenet-symbol.json", 3, 1, 28, 28) {
      @Override
      KilnModel create() {
        return ImportedLeNetModel.create(Init.xavier(), 7);
      }
    },
    /** A residual block in MXNet 0.8's format, upgraded by MXNet's loader. */
    LEGACY("legacy-symbol.json", 2, 3, 8, 8) {
      @Override
      KilnModel create() {
        return LegacyNetModel.create(Init.xavier(), 7);
      }
    },
    /** Image operators of every kind, to a regression head, saved by MXNet 1.9.1. */
    ZOO("zoo-symbol.json", 3, 3, 8, 8) {
      @Override
      KilnModel create() {
        return ZooNetModel.create(Init.xavier(), 7);
      }
    },
    /** A graph named as Gluon's export names one. */
    GLUON("gluon-symbol.json", 2, 2, 6, 6) {
      @Override
      KilnModel create() {
        return GluonNetModel.create(Init.xavier(), 7);
      }
    },
    /** Tensor operators, saved by MXNet 1.9.1. */
    TENSORS("tensors-symbol.json", 3, 4, 6) {
      @Override
      KilnModel create() {
        return TensorsNetModel.create(Init.xavier(), 7);
      }
    },
    /** An embedding, a 1-D convolution and a logistic head, saved by MXNet 1.9.1. */
    TOKENS("tokens-symbol.json", 4, 7) {
      @Override
      KilnModel create() {
        return TokensNetModel.create(Init.xavier(), 7);
      }

      @Override
      float value(Random r) {
        return r.nextInt(20);
      }
    },
    /** An LSTM unrolled over 3 steps that share their weights, saved by MXNet 1.9.1. */
    TIED_LSTM("tied-lstm-symbol.json", 3, 3, 4) {
      @Override
      KilnModel create() {
        return TiedLstmNetModel.create(Init.xavier(), 7);
      }
    },
    /** MTCNN's shape: three outputs (the first compared here) and MXNet's scalar operators. */
    HEADS("heads-symbol.json", 2, 3, 12, 12) {
      @Override
      KilnModel create() {
        return HeadsNetModel.create(Init.xavier(), 7);
      }
    },
    /** An operator of empty name and two of one name, as MXNet 0.8's C++ API writes them. */
    UNNAMED("unnamed-symbol.json", 3, 4) {
      @Override
      KilnModel create() {
        return UnnamedNetModel.create(Init.xavier(), 7);
      }
    },
    /**
     * A fully convolutional network imported with free height and width, at an odd size (more sizes
     * in {@link FreeDimImportTest}).
     */
    FCN("fcn-symbol.json", 2, 3, 9, 15) {
      @Override
      KilnModel create() {
        return FcnNetModel.create(Init.xavier(), 7);
      }
    },
    /** SwapAxis, a bidirectional two-layer LSTM and a GRU, time-major, saved by MXNet 1.9.1. */
    RECURRENT("recurrent-symbol.json", 3, 5, 4) {
      @Override
      KilnModel create() {
        return RecurrentNetModel.create(Init.xavier(), 7);
      }
    };

    final String symbol;
    final int[] shape;

    Case(String symbol, int... shape) {
      this.symbol = symbol;
      this.shape = shape;
    }

    abstract KilnModel create();

    /** One value of the input: Gaussian, or a token id. */
    float value(Random r) {
      return (float) r.nextGaussian();
    }

    /** The largest difference from MXNet's executor, every parameter and state drawn at random. */
    double difference() throws IOException {
      try (KilnModel model = create()) {
        randomize(model, new Random(symbol.hashCode()));
        return ImportAgreementTest.difference(model, symbol, shape, this);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Case.class)
  void agreesWithMxnet(Case c) throws IOException {
    double diff = c.difference();
    assertTrue(diff <= TOLERANCE, "largest difference from MXNet's executor: " + diff);
  }

  @Test
  void agreesWithMxnetWithoutOneDnn() throws IOException, InterruptedException {
    TestJvm.Outcome child =
        TestJvm.run(
            ImportAgreementTest.class,
            // Without oneDNN MXNet logs a storage fallback per operator: keep the pipe quiet.
            Map.of("MXNET_MKLDNN_ENABLED", "0", "MXNET_STORAGE_FALLBACK_LOG_VERBOSE", "0"),
            120);
    assertTrue(child.finished(), child.output());
    assertEquals(0, child.exitValue(), child.output());
    for (Case c : Case.values()) {
      if (c != Case.RECURRENT) {
        assertTrue(child.output().contains("AGREE " + c), child.output());
      }
    }
    // Kiln runs recurrent layers on oneDNN's RNN kernel only (RecurrentOp says why), and says so.
    assertTrue(
        child.output().contains("REFUSED RECURRENT")
            && child.output().contains("recurrent layers need MXNet's oneDNN RNN kernel"),
        child.output());
  }

  /** Run without oneDNN by {@link #agreesWithMxnetWithoutOneDnn}. */
  public static void main(String[] args) throws IOException {
    for (Case c : Case.values()) {
      double diff;
      try {
        diff = c.difference();
      } catch (dev.kiln.runtime.graph.ModelException e) {
        System.out.println("REFUSED " + c + " " + e.getMessage());
        continue;
      }
      System.out.println((diff <= TOLERANCE ? "AGREE " : "DIFFER ") + c + " " + diff);
    }
  }

  /** A softmax head makes a classifier, a regression head a trainer. */
  @Test
  void theFilesHeadDecidesHowTheModelTrains() {
    try (KilnModel lenet = Case.LENET.create();
        KilnModel gluon = Case.GLUON.create();
        KilnModel zoo = Case.ZOO.create();
        KilnModel tokens = Case.TOKENS.create()) {
      assertTrue(lenet.isClassifier());
      assertTrue(gluon.isClassifier());
      assertEquals(10, lenet.classifier().classes());
      assertTrue(zoo.hasTrainer() && !zoo.isClassifier());
      assertTrue(tokens.hasTrainer() && !tokens.isClassifier());
    }
  }

  /**
   * An imported {@code RNN}'s flat vector keeps the file's name and MXNet's layout (the executor's
   * agreement above needs both); its initial states are Kiln's own, zeros, not parameters.
   */
  @Test
  void anImportedRnnKeepsTheFilesParameterVector() {
    try (RecurrentNetModel model = RecurrentNetModel.create()) {
      assertEquals(
          List.of("lstm0_parameters", "gru0_parameters", "fc_weight", "fc_bias"),
          model.params().parameters().stream().map(Parameter::name).toList());
      // 2 directions · (4 gates · 6 · (4 + 6) + 4 gates · 6 · (12 + 6) + 2 · 2 · 4 gates · 6).
      assertEquals(2 * (24 * 10 + 24 * 18 + 4 * 24), model.params().lstm0Parameters().get().length);
    }
  }

  /**
   * The imported recurrent file trains: its regression loss on one batch falls over a few SGD
   * steps, the LSTM's flat vector (read through two one-layer operators with dropout between them
   * in training) among the parameters that move.
   */
  @Test
  void anImportedRecurrentFileTrains() {
    Random r = new Random(11);
    float[] x = new float[8 * 5 * 4];
    float[] y = new float[8 * 2];
    for (int i = 0; i < x.length; i++) {
      x[i] = (float) r.nextGaussian();
    }
    for (int i = 0; i < y.length; i++) {
      y[i] = (float) r.nextGaussian();
    }
    try (RecurrentNetModel model = RecurrentNetModel.create(Init.xavier(), 3);
        dev.kiln.runtime.optim.Sgd sgd = new dev.kiln.runtime.optim.Sgd(0.1f)) {
      float[] lstm = model.params().lstm0Parameters().get();
      double first = model.trainer().trainBatch(x, y, 8, sgd).meanLoss();
      double last = first;
      for (int step = 0; step < 30; step++) {
        last = model.trainer().trainBatch(x, y, 8, sgd).meanLoss();
      }
      assertTrue(last < 0.8 * first, "loss " + first + " then " + last);
      assertTrue(!java.util.Arrays.equals(lstm, model.params().lstm0Parameters().get()));
    }
  }

  /**
   * MXNet 1.9.1 upgrades the 0.8 file as Kiln reads it: the batch norm's moving averages, which the
   * file does not have, are {@code bn_moving_mean} and {@code bn_moving_var}.
   */
  @Test
  void mxnetNamesTheLegacyMovingAveragesAsKilnDoes() throws IOException {
    String json =
        Files.readString(SymbolFiles.DIR.resolve("legacy-symbol.json"), StandardCharsets.UTF_8);
    try (SymbolHandle s = SymbolHandle.fromJson(json);
        LegacyNetModel model = LegacyNetModel.create()) {
      assertEquals(List.of("bn_moving_mean", "bn_moving_var"), s.auxiliaryStates());
      assertEquals(
          s.auxiliaryStates(),
          model.params().auxiliaryStates().stream().map(Parameter::name).toList());
      List<String> args = new java.util.ArrayList<>(s.arguments());
      args.removeAll(List.of("data", "softmax_label"));
      assertEquals(args, model.params().parameters().stream().map(Parameter::name).toList());
    }
  }

  /**
   * Sets every parameter and auxiliary state of {@code model} at random: a variance positive, a
   * batch norm's scale away from 1 (which a {@code fix_gamma} batch norm must ignore).
   */
  static void randomize(KilnModel model, Random r) {
    List<Parameter> all = new java.util.ArrayList<>(model.params().parameters());
    all.addAll(model.params().auxiliaryStates());
    for (Parameter p : all) {
      float[] v = new float[p.get().length];
      for (int i = 0; i < v.length; i++) {
        v[i] =
            p.name().endsWith("_var")
                ? 0.5f + r.nextFloat()
                : (float) (0.3 * r.nextGaussian() + (p.name().endsWith("_gamma") ? 1.5 : 0));
      }
      p.set(v);
    }
  }

  /**
   * The largest difference between {@code model}'s output and MXNet's for a random batch of {@code
   * shape} fed to input {@code data}, with the model's own parameters in both.
   */
  static double difference(KilnModel model, String symbol, int[] shape) throws IOException {
    return difference(model, symbol, shape, Case.LENET);
  }

  /** As above, the input's values drawn as {@code c} draws them. */
  static double difference(KilnModel model, String symbol, int[] shape, Case c) throws IOException {
    Map<String, float[]> arrays = new LinkedHashMap<>();
    for (Parameter p : model.params().parameters()) {
      arrays.put(p.name(), p.get());
    }
    for (Parameter p : model.params().auxiliaryStates()) {
      arrays.put(p.name(), p.get());
    }
    int n = 1;
    for (int d : shape) {
      n *= d;
    }
    float[] x = new float[n];
    Random r = new Random(5);
    for (int i = 0; i < n; i++) {
      x[i] = c.value(r);
    }
    String json = Files.readString(SymbolFiles.DIR.resolve(symbol), StandardCharsets.UTF_8);
    float[] theirs = MxnetReference.forward(json, arrays, "data", shape, x);
    float[] ours;
    try (NDManager nd = NDManager.newBaseManager()) {
      NDArray in = nd.create(x, new ai.djl.ndarray.types.Shape(toLongs(shape)));
      ours = model.forward(new ai.djl.ndarray.NDList(in)).get(0).toFloatArray();
    }
    assertEquals(theirs.length, ours.length);
    double worst = 0;
    for (int i = 0; i < ours.length; i++) {
      worst = Math.max(worst, Math.abs(ours[i] - theirs[i]));
    }
    return worst;
  }

  private static long[] toLongs(int[] shape) {
    long[] out = new long[shape.length];
    for (int i = 0; i < shape.length; i++) {
      out[i] = shape[i];
    }
    return out;
  }
}
