package dev.kiln.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.data.Dataset;
import dev.kiln.runtime.data.IdxFiles;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.runtime.infer.QuantizeOptions;
import dev.kiln.runtime.mxnet.OmpThreads;
import dev.kiln.sample.models.FashionFcnModel;
import dev.kiln.sample.models.FashionMlpModel;
import dev.kiln.sample.models.FashionVitModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The command line, end to end on a tiny Fashion-MNIST-shaped data set. */
class MainTest {
  @TempDir Path dir;

  private Path data() throws Exception {
    Path d = Files.createDirectories(dir.resolve("data"));
    IdxFiles.write(d.resolve("train-images-idx3-ubyte"), IdxFiles.images(40, 28, 28), false);
    int[] labels = new int[40];
    for (int i = 0; i < 40; i++) {
      labels[i] = i % 10;
    }
    IdxFiles.write(d.resolve("train-labels-idx1-ubyte.gz"), IdxFiles.labels(labels), true);
    IdxFiles.write(d.resolve("t10k-images-idx3-ubyte"), IdxFiles.images(10, 28, 28), false);
    IdxFiles.write(
        d.resolve("t10k-labels-idx1-ubyte"), IdxFiles.labels(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), false);
    return d;
  }

  private record Run(int code, String out, String err) {}

  private Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      // Made after System.out is replaced: picocli's own output (help, version) goes there too.
      CommandLine cl = Main.commandLine();
      StringWriter err = new StringWriter();
      cl.setErr(new PrintWriter(err));
      int code = cl.execute(args);
      cl.getOut().flush();
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString());
    } finally {
      System.setOut(saved);
    }
  }

  @Test
  void trainWritesCheckpointMetricsAndChartThenEvalPredictAndExportUseIt() throws Exception {
    Path data = data();
    Path out = dir.resolve("out");
    Run train =
        run(
            "train",
            "--data",
            data.toString(),
            "--epochs",
            "2",
            "--batch-size",
            "8",
            "--out",
            out.toString());
    assertEquals(0, train.code(), train.err());
    assertTrue(train.out().contains("epoch 2/2"), train.out());
    assertEquals(
        1,
        train.out().lines().filter(l -> l.contains("epoch 2/2  train loss")).count(),
        "one line per epoch: " + train.out());
    // 40 training images: the last twelfth (3) validates, the test set is measured once.
    assertTrue(
        train.out().contains("37 training images, 3 held out for validation (the last twelfth"),
        train.out());
    assertTrue(train.out().contains("validation loss"), train.out());
    assertTrue(
        train.out().contains("MXNet: " + OmpThreads.inUse() + System.lineSeparator()), train.out());
    List<String> last = train.out().lines().toList();
    assertTrue(
        last.get(last.size() - 1).startsWith("test accuracy ")
            && last.get(last.size() - 1).endsWith(" 10 test images, measured once after training)"),
        train.out());
    String[] files = {
      "mlp-symbol.json",
      "mlp-0000.params",
      "mlp-0000.params.sha256",
      "mlp-metrics.csv",
      "mlp-training.png"
    };
    StringBuilder wrote = new StringBuilder("wrote ");
    for (String f : files) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
      wrote.append(wrote.length() > 6 ? ", " : "").append(out.resolve(f));
    }
    assertTrue(train.out().contains(wrote + "\n"), train.out());
    Run eval =
        run("eval", "--data", data.toString(), "--checkpoint", out.resolve("mlp").toString());
    assertEquals(0, eval.code(), eval.err());
    assertTrue(eval.out().contains("(mlp) on 10 test images: loss"), eval.out());
    // The params file names the checkpoint as well as its prefix does.
    Run byFile =
        run(
            "eval",
            "--data",
            data.toString(),
            "--checkpoint",
            out.resolve("mlp-0000.params").toString());
    assertEquals(0, byFile.code(), byFile.err());
    assertEquals(eval.out(), byFile.out());
    Run predict =
        run(
            "predict",
            "--data",
            data.toString(),
            "--checkpoint",
            out.resolve("mlp").toString(),
            "--count",
            "3");
    assertEquals(0, predict.code(), predict.err());
    assertEquals(3, predict.out().lines().filter(l -> l.contains("predicted")).count());
    Run export =
        run(
            "export",
            "--checkpoint",
            out.resolve("mlp").toString(),
            "--to",
            dir.resolve("exported").toString());
    assertEquals(0, export.code(), export.err());
    assertEquals(
        -1L, Files.mismatch(out.resolve("mlp-0000.params"), dir.resolve("exported-0000.params")));
  }

  @Test
  void theAutoencoderTrainsOnTheImagesAsTargetsAndReportsTheTestMse() throws Exception {
    Path data = data();
    Path out = dir.resolve("out");
    Run train =
        run(
            "train",
            "--model",
            "autoencoder",
            "--data",
            data.toString(),
            "--epochs",
            "1",
            "--out",
            out.toString());
    assertEquals(0, train.code(), train.err());
    assertTrue(train.out().contains("epoch 1/1  train loss"), train.out());
    assertTrue(train.out().contains(" mse "), train.out());
    List<String> lines = train.out().lines().toList();
    String last = lines.get(lines.size() - 1);
    assertTrue(
        last.matches(
            "test MSE 0\\.\\d{4} \\(loss 0\\.\\d{4}, 10 test images, measured once after "
                + "training\\)"),
        train.out());
    assertTrue(
        train.out().contains(", " + out.resolve("autoencoder-reconstructions.png") + "\n"),
        train.out());
    java.awt.image.BufferedImage png =
        javax.imageio.ImageIO.read(out.resolve("autoencoder-reconstructions.png").toFile());
    // Eight 28x28 images at 3x with 2-pixel gaps, inputs above their reconstructions.
    assertEquals(8 * (28 * 3 + 2) + 2, png.getWidth());
    assertEquals(2 * (28 * 3 + 2) + 2, png.getHeight());
    assertEquals(
        "epoch,train_loss,train_mse,val_loss,val_mse,seconds",
        Files.readAllLines(out.resolve("autoencoder-metrics.csv")).get(0));

    Run eval =
        run(
            "eval",
            "--data",
            data.toString(),
            "--checkpoint",
            out.resolve("autoencoder").toString());
    assertEquals(0, eval.code(), eval.err());
    assertTrue(eval.out().contains("(autoencoder) on 10 test images: loss"), eval.out());
    assertTrue(eval.out().contains(", MSE 0."), eval.out());
    Run predict =
        run(
            "predict",
            "--data",
            data.toString(),
            "--checkpoint",
            out.resolve("autoencoder").toString());
    assertEquals(1, predict.code());
    assertTrue(predict.err().contains("predict needs a classifier"), predict.err());
  }

  @Test
  void theVitTrainsWritesItsChartAndCheckpointAndDjlComputesWhatKilnDoes() throws Exception {
    Path data = data();
    Path out = dir.resolve("out");
    Run train =
        run(
            "train",
            "--model",
            "vit",
            "--data",
            data.toString(),
            "--epochs",
            "1",
            "--batch-size",
            "8",
            "--out",
            out.toString());
    assertEquals(0, train.code(), train.err());
    for (String f : new String[] {"vit-symbol.json", "vit-0000.params", "vit-training.png"}) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
    List<String> lines = train.out().lines().toList();
    assertTrue(lines.get(lines.size() - 1).startsWith("test accuracy "), train.out());
    // Every copy of the block has parameters of its own, saved under MXNet's names.
    String symbol = Files.readString(out.resolve("vit-symbol.json"));
    for (int copy = 0; copy < 4; copy++) {
      assertTrue(symbol.contains("\"encoder" + copy + "_attention_query_weight\""), symbol);
    }
    try (FashionVitModel kiln = FashionVitModel.load(out.resolve("vit"));
        ai.djl.ndarray.NDManager nd = ai.djl.ndarray.NDManager.newBaseManager();
        ai.djl.Model djl = ai.djl.Model.newInstance("vit", "MXNet")) {
      djl.load(out, "vit");
      ai.djl.ndarray.NDArray x =
          nd.randomUniform(0, 1, new ai.djl.ndarray.types.Shape(5, 1, 28, 28));
      float[] expected = kiln.forward(x).toFloatArray();
      try (ai.djl.inference.Predictor<ai.djl.ndarray.NDList, ai.djl.ndarray.NDList> p =
          djl.newPredictor(new ai.djl.translate.NoopTranslator())) {
        float[] actual = p.predict(new ai.djl.ndarray.NDList(x)).singletonOrThrow().toFloatArray();
        assertArrayEquals(expected, actual, 1e-5f);
      }
    }
    Run summary = run("summary", "--model", "vit");
    assertEquals(0, summary.code(), summary.err());
    for (String node : new String[] {"encoder0_attention", "encoder3_out", "pooled", "total"}) {
      assertTrue(summary.out().contains(node), summary.out());
    }
  }

  @Test
  void theFullyConvolutionalModelTrainsAt28AndItsCheckpointTakesOtherSizes() throws Exception {
    Path data = data();
    Path out = dir.resolve("out");
    Run train =
        run(
            "train",
            "--model",
            "fcn",
            "--data",
            data.toString(),
            "--epochs",
            "1",
            "--batch-size",
            "8",
            "--out",
            out.toString());
    assertEquals(0, train.code(), train.err());
    List<String> lines = train.out().lines().toList();
    assertTrue(lines.get(lines.size() - 1).startsWith("test accuracy "), train.out());
    Run eval =
        run(
            "eval",
            "--model",
            "fcn",
            "--data",
            data.toString(),
            "--checkpoint",
            out.resolve("fcn").toString());
    assertEquals(0, eval.code(), eval.err());
    try (FashionFcnModel kiln = FashionFcnModel.load(out.resolve("fcn"));
        ai.djl.ndarray.NDManager nd = ai.djl.ndarray.NDManager.newBaseManager()) {
      for (int side : new int[] {28, 40, 13}) {
        ai.djl.ndarray.NDArray x =
            nd.randomUniform(0, 1, new ai.djl.ndarray.types.Shape(2, 1, side, side + 3));
        assertArrayEquals(new long[] {2, 10}, kiln.forward(x).getShape().getShape());
      }
    }
    Run summary = run("summary", "--model", "fcn");
    assertEquals(0, summary.code(), summary.err());
    assertTrue(summary.out().contains("H >= 4  pool2"), summary.out());
  }

  @Test
  void aMissingCheckpointNamesTheOptionTheFileAndTheFix() throws Exception {
    Path data = data();
    Run r = run("eval", "--data", data.toString(), "--checkpoint", dir.resolve("nope").toString());
    assertEquals(1, r.code());
    assertTrue(
        r.err()
            .startsWith(
                "--checkpoint "
                    + dir.resolve("nope")
                    + ": there is no "
                    + "checkpoint there ("
                    + dir.resolve("nope-0000.params")
                    + " does not exist); give the "
                    + "prefix a train run wrote, e.g. out/mlp after `train --model mlp`"),
        r.err());
  }

  @Test
  void theCheckpointSaysWhichModelItIsAndAMismatchedModelIsRefused() throws Exception {
    Path data = data();
    Path out = Files.createDirectories(dir.resolve("out"));
    assertEquals(
        0,
        run("export", "--model", "lstm", "--to", out.resolve("lstm").toString()).code(),
        "export a fresh LSTM");
    Run inferred =
        run("eval", "--data", data.toString(), "--checkpoint", out.resolve("lstm").toString());
    assertEquals(0, inferred.code(), inferred.err());
    assertTrue(inferred.out().contains("(lstm) on 10 test images"), inferred.out());
    Run summary = run("summary", "--checkpoint", out.resolve("lstm").toString());
    assertEquals(0, summary.code(), summary.err());
    assertTrue(summary.out().startsWith("FashionLstm\n"), summary.out());
    Run r =
        run(
            "eval",
            "--data",
            data.toString(),
            "--model",
            "mlp",
            "--checkpoint",
            out.resolve("lstm").toString());
    assertEquals(1, r.code());
    assertTrue(
        r.err()
            .startsWith(
                "--checkpoint "
                    + out.resolve("lstm")
                    + " holds a checkpoint of --model lstm, not --model mlp; give --model lstm "
                    + "or leave --model out"),
        r.err());
  }

  @Test
  void countOutsideTheTestSetIsRefusedWithItsBounds() throws Exception {
    Path data = data();
    Path out = Files.createDirectories(dir.resolve("out"));
    assertEquals(0, run("export", "--model", "mlp", "--to", out.resolve("mlp").toString()).code());
    Run zero =
        run(
            "predict",
            "--data",
            data.toString(),
            "--checkpoint",
            out.resolve("mlp").toString(),
            "--count",
            "0");
    assertEquals(2, zero.code());
    assertEquals(
        "--count must be at least 1, got 0\n"
            + "Usage: kiln-sample predict [OPTIONS]; `kiln-sample predict --help` lists them\n",
        zero.err());
    Run many =
        run(
            "predict",
            "--data",
            data.toString(),
            "--checkpoint",
            out.resolve("mlp").toString(),
            "--count",
            "20000");
    assertEquals(2, many.code());
    assertTrue(
        many.err()
            .startsWith("--count must be at most 10 (the test set has 10 images), " + "got 20000"),
        many.err());
    assertTrue(many.err().contains("\nUsage: kiln-sample predict [OPTIONS]"), many.err());
  }

  @Test
  void anInferenceOnlyCheckpointIsNamedAsSuchInOneLine() throws Exception {
    Path data = data();
    Path int8 = dir.resolve("mlp-int8");
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 3);
        Predictor p =
            m.quantized(
                new Dataset(new float[64 * 784], new int[64], 784, 10),
                QuantizeOptions.defaults().withBatches(1))) {
      p.save(int8);
    }
    for (String command : List.of("eval", "predict", "summary")) {
      Run r =
          command.equals("summary")
              ? run(command, "--checkpoint", int8.toString())
              : run(command, "--data", data.toString(), "--checkpoint", int8.toString());
      assertEquals(1, r.code(), command + ": " + r.err());
      assertEquals(1, r.err().lines().count(), command + ": " + r.err());
      assertTrue(
          r.err()
              .startsWith(
                  "--checkpoint "
                      + int8
                      + " holds an inference-only model (int8, as kiln quantize or"
                      + " Predictor.save write it)"),
          command + ": " + r.err());
      assertTrue(r.err().contains("kiln serve --checkpoint " + int8), r.err());
    }
  }

  @Test
  void exportCreatesItsDirectoryAndReplacesACheckpointOnlyWithOverwrite() throws Exception {
    Path target = dir.resolve("no/such/dir/x");
    Run none = run("export", "--to", target.toString());
    assertEquals(2, none.code());
    assertTrue(
        none.err()
            .startsWith(
                "export needs --checkpoint PREFIX (a trained model) or --model NAME (a freshly "
                    + "initialised one)\nUsage: kiln-sample export [OPTIONS]"),
        none.err());
    assertFalse(Files.exists(target.getParent()), "nothing written");
    Run r = run("export", "--model", "mlp", "--to", target.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(Files.isRegularFile(dir.resolve("no/such/dir/x-0000.params")));
    assertTrue(
        r.out().contains(dir.resolve("no/such/dir/x-0000.params.sha256").toString()), r.out());
    byte[] before = Files.readAllBytes(dir.resolve("no/such/dir/x-0000.params"));
    Run again = run("export", "--model", "mlp", "--seed", "1", "--to", target.toString());
    assertEquals(1, again.code());
    assertEquals(
        "--to "
            + target
            + ": a checkpoint is already there ("
            + dir.resolve("no/such/dir/x-0000.params")
            + "); give another prefix, or --overwrite to replace it\n",
        again.err());
    assertArrayEquals(before, Files.readAllBytes(dir.resolve("no/such/dir/x-0000.params")));
    Run overwrite =
        run("export", "--model", "mlp", "--seed", "1", "--to", target.toString(), "--overwrite");
    assertEquals(0, overwrite.code(), overwrite.err());
    assertFalse(
        java.util.Arrays.equals(
            before, Files.readAllBytes(dir.resolve("no/such/dir/x-0000.params"))));
  }

  @Test
  void trainingTwiceKeepsThePreviousCheckpointAndSaysWhere() throws Exception {
    Path data = data();
    Path out = dir.resolve("out");
    String[] args = {
      "train",
      "--data",
      data.toString(),
      "--epochs",
      "1",
      "--batch-size",
      "8",
      "--out",
      out.toString()
    };
    assertEquals(0, run(args).code());
    byte[] first = Files.readAllBytes(out.resolve("mlp-0000.params"));
    Run second = run(concat(args, "--seed", "3"));
    assertEquals(0, second.code(), second.err());
    Path kept = out.resolve("mlp.1");
    assertTrue(
        second
            .out()
            .contains(
                "kept the previous checkpoint at "
                    + out.resolve("mlp")
                    + " as "
                    + kept
                    + " (eval --checkpoint "
                    + kept
                    + "); --overwrite replaces it instead"),
        second.out());
    assertArrayEquals(first, Files.readAllBytes(out.resolve("mlp.1-0000.params")));
    for (String f : new String[] {"-symbol.json", "-0000.params.sha256", "-metrics.csv"}) {
      assertTrue(Files.isRegularFile(out.resolve("mlp.1" + f)), f);
    }
    assertEquals(0, run("eval", "--data", data.toString(), "--checkpoint", kept.toString()).code());
    // A third run keeps the second's as mlp.2; --overwrite keeps nothing.
    assertEquals(0, run(args).code());
    assertTrue(Files.isRegularFile(out.resolve("mlp.2-0000.params")));
    Run overwrite = run(concat(args, "--overwrite"));
    assertEquals(0, overwrite.code(), overwrite.err());
    assertTrue(overwrite.out().contains("replacing the checkpoint at " + out.resolve("mlp")));
    assertFalse(Files.exists(out.resolve("mlp.3-0000.params")));
  }

  @Test
  void missingDataSaysHowToGetIt() {
    Run r = run("train", "--data", dir.resolve("nothing").toString());
    assertEquals(1, r.code());
    assertTrue(r.err().contains("apt-get install dataset-fashion-mnist"), r.err());
  }

  @Test
  void unknownModelIsAUsageErrorListingTheChoicesAndOneUsageLine() {
    Run r = run("train", "--model", "resnet");
    assertEquals(2, r.code());
    assertEquals(
        "Invalid value for option '--model': unknown model 'resnet'; choose mlp, lenet, lstm, "
            + "conv1d, autoencoder, vit, fcn\n"
            + "Usage: kiln-sample train [OPTIONS]; `kiln-sample train --help` lists them\n",
        r.err());
  }

  @Test
  void everyCommandPrintsTheBuildsVersion() {
    for (String[] args :
        new String[][] {{"-V"}, {"--version"}, {"train", "-V"}, {"export", "--version"}}) {
      Run r = run(args);
      assertEquals(0, r.code(), r.err());
      assertTrue(
          r.out().matches("kiln-sample \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R"),
          java.util.Arrays.toString(args) + " [" + r.out() + "]");
      assertEquals("kiln-sample " + System.getProperty("kiln.version") + "\n", r.out());
    }
  }

  @Test
  void summaryPrintsTheCompileTimeTable() {
    Run r = run("summary");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("total") && r.out().contains("101770"), r.out());
  }

  @Test
  void trainOnTwoContextsSplitsEveryBatchAndWritesTheCheckpoint() throws Exception {
    Path data = data();
    Path out = dir.resolve("out");
    Run r =
        run(
            "train",
            "--data",
            data.toString(),
            "--epochs",
            "1",
            "--batch-size",
            "8",
            "--contexts",
            "2",
            "--out",
            out.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(
        r.out()
            .contains("data-parallel: 2 CPU contexts, each step's 8 examples split between them"),
        r.out());
    assertTrue(r.out().contains("test accuracy"), r.out());
    assertTrue(Files.size(out.resolve("mlp-0000.params")) > 400_000);
  }

  @Test
  void resumeContinuesFromTheCheckpointNotFromAFreshModel() throws Exception {
    Path data = data();
    // Plain SGD keeps no state and one batch of all 37 training images (40 less 3 held out for
    // validation) makes an epoch one step whatever the shuffle, so one epoch resumed after one
    // epoch is two epochs in one run.
    String[] sgd = {
      "train",
      "--data",
      data.toString(),
      "--batch-size",
      "37",
      "--optimizer",
      "sgd",
      "--lr",
      "0.1",
      "--schedule",
      "constant"
    };
    Path two = dir.resolve("two");
    Path one = dir.resolve("one");
    Path resumed = dir.resolve("resumed");
    Run first = run(concat(sgd, "--epochs", "2", "--out", two.toString()));
    assertEquals(0, first.code(), first.err());
    assertEquals(0, run(concat(sgd, "--epochs", "1", "--out", one.toString())).code());
    Run r =
        run(
            concat(
                sgd,
                "--epochs",
                "1",
                "--resume",
                one.resolve("mlp").toString(),
                "--out",
                resumed.toString()));
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("resuming from " + one.resolve("mlp") + ": "), r.out());
    try (FashionMlpModel a = FashionMlpModel.load(two.resolve("mlp"));
        FashionMlpModel b = FashionMlpModel.load(resumed.resolve("mlp"));
        FashionMlpModel c = FashionMlpModel.load(one.resolve("mlp"))) {
      float[] expected = a.params().hiddenWeight().get();
      float[] actual = b.params().hiddenWeight().get();
      float[] halfway = c.params().hiddenWeight().get();
      double moved = 0;
      for (int i = 0; i < expected.length; i++) {
        assertEquals(expected[i], actual[i], 1e-5, "hidden_weight[" + i + "]");
        moved = Math.max(moved, Math.abs(expected[i] - halfway[i]));
      }
      assertTrue(moved > 1e-3, "the second epoch moved the weights by " + moved);
    }
  }

  private static String[] concat(String[] head, String... tail) {
    String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
    System.arraycopy(tail, 0, all, head.length, tail.length);
    return all;
  }

  @Test
  void moreContextsThanCoresIsWarnedOfBeforeAnyWork() {
    int cores = Runtime.getRuntime().availableProcessors();
    Run r =
        run(
            "train",
            "--data",
            dir.resolve("no-data").toString(),
            "--contexts",
            Integer.toString(cores + 1));
    assertEquals(1, r.code());
    assertTrue(
        r.err()
            .startsWith(
                "warning: --contexts "
                    + (cores + 1)
                    + " on a machine with "
                    + cores
                    + " cores: the contexts share cores"),
        r.err());
    assertTrue(r.err().contains("Fashion-MNIST not found"), r.err());
  }

  @Test
  void everyOptionIsCheckedBeforeTheDataIsReadOrAnythingWritten() {
    // No data there and a fresh --out: a bad option is what is reported, and nothing is created.
    Path nothing = dir.resolve("no-data");
    Path out = dir.resolve("no-out");
    // A bad value is a usage mistake (exit 2, one usage line); a missing checkpoint to resume
    // from is a refused request (exit 1).
    String[][] cases = {
      {"--contexts", "0", "2", "--contexts must be at least 1, got 0"},
      {"--limit", "1", "2", "--limit must be at least 2 (one image to train on, one held out for "},
      {"--optimizer", "adagrad", "2", "unknown optimizer 'adagrad'; choose sgd, momentum, adam"},
      {"--schedule", "step", "2", "unknown schedule 'step'; choose constant, cosine, decay"},
      {"--updates", "both", "2", "--updates both: choose workers, servers or async"},
      {"--updates", "async", "2", "--updates async: this run is one process, which has no"},
      {"--compression", "4bit", "2", "--compression 4bit: choose none, 2bit or 2bit:THRESHOLD"},
      {"--compression", "2bit:-1", "2", "--compression 2bit:-1: choose none, 2bit or 2bit:"},
      {"--compression", "2bit", "2", "--compression 2bit: this run is one process, which pushes"},
      {"--updates", "servers", "2", "--updates servers: this run is one process, which has no"},
      {"--epochs", "0", "2", "--epochs must be at least 1, got 0"},
      {"--batch-size", "-3", "2", "--batch-size must be at least 1, got -3"},
      {"--lr", "-1", "2", "--lr must be a positive number, got -1.0"},
      {"--lr-decay", "0", "2", "--lr-decay must be in (0, 1] (the factor per epoch), got 0.0"},
      {"--weight-decay", "-1", "2", "--weight-decay must be 0 or more, got -1.0"},
      {"--precision", "fp16", "2", "--precision fp16: choose fp32 or bf16"},
      {"--resume", dir.resolve("gone").toString(), "1", "--resume " + dir.resolve("gone") + ": "}
    };
    for (String[] c : cases) {
      Run r = run("train", "--data", nothing.toString(), "--out", out.toString(), c[0], c[1]);
      assertEquals(Integer.parseInt(c[2]), r.code(), c[0] + ": " + r.err());
      assertTrue(r.err().startsWith(c[3]), c[0] + ": " + r.err());
      assertEquals(
          c[2].equals("2"),
          r.err().contains("\nUsage: kiln-sample train [OPTIONS]; `kiln-sample train --help`"),
          c[0] + ": " + r.err());
      assertFalse(Files.exists(out), c[0] + " created " + out);
    }
    Run both =
        run(
            "train",
            "--data",
            nothing.toString(),
            "--out",
            out.toString(),
            "--precision",
            "bf16",
            "--contexts",
            "2");
    assertEquals(2, both.code(), both.err());
    assertTrue(
        both.err()
            .startsWith(
                "--precision bf16 trains on one context in one process; data-parallel and "
                    + "distributed training run in fp32"),
        both.err());
  }
}
