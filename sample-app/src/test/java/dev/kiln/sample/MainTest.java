package dev.kiln.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.data.IdxFiles;
import dev.kiln.sample.models.FashionMlpModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    CommandLine cl = Main.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      int code = cl.execute(args);
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
    assertTrue(train.out().contains("test accuracy"), train.out());
    for (String f :
        new String[] {
          "mlp-symbol.json", "mlp-0000.params", "mlp-metrics.csv", "mlp-training.png"
        }) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
    Run eval =
        run("eval", "--data", data.toString(), "--checkpoint", out.resolve("mlp").toString());
    assertEquals(0, eval.code(), eval.err());
    assertTrue(eval.out().contains("on 10 test images: loss"), eval.out());
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
  void anotherModelsCheckpointSaysWhichOptionPicksTheModel() throws Exception {
    Path data = data();
    Path out = Files.createDirectories(dir.resolve("out"));
    assertEquals(
        0,
        run("export", "--model", "lenet", "--to", out.resolve("lenet").toString()).code(),
        "export a fresh LeNet");
    Run r = run("eval", "--data", data.toString(), "--checkpoint", out.resolve("lenet").toString());
    assertEquals(1, r.code());
    assertTrue(
        r.err()
            .startsWith(
                "--checkpoint " + out.resolve("lenet") + " does not load as " + "--model mlp: "),
        r.err());
    assertTrue(
        r.err()
            .contains(
                "if it is another model's checkpoint, give that model with "
                    + "--model (mlp, lenet, lstm)"),
        r.err());
  }

  @Test
  void countOutsideTheTestSetIsRefusedWithItsBounds() throws Exception {
    Path data = data();
    Path out = Files.createDirectories(dir.resolve("out"));
    assertEquals(0, run("export", "--to", out.resolve("mlp").toString()).code());
    Run zero =
        run(
            "predict",
            "--data",
            data.toString(),
            "--checkpoint",
            out.resolve("mlp").toString(),
            "--count",
            "0");
    assertEquals(1, zero.code());
    assertTrue(zero.err().startsWith("--count must be at least 1, got 0"), zero.err());
    Run many =
        run(
            "predict",
            "--data",
            data.toString(),
            "--checkpoint",
            out.resolve("mlp").toString(),
            "--count",
            "20000");
    assertEquals(1, many.code());
    assertTrue(
        many.err()
            .startsWith("--count must be at most 10 (the test set has 10 images), " + "got 20000"),
        many.err());
  }

  @Test
  void exportIntoAMissingDirectoryIsRefused() {
    Path target = dir.resolve("no/such/dir/x");
    Run r = run("export", "--to", target.toString());
    assertEquals(1, r.code());
    assertTrue(
        r.err()
            .startsWith(
                "--to "
                    + target
                    + ": directory "
                    + target.getParent()
                    + " does not exist; create it first"),
        r.err());
    assertTrue(!Files.exists(target.getParent()), "nothing was created");
  }

  @Test
  void benchHelpShowsNoPhantomCommand() {
    Run r = run("bench", "--help");
    assertEquals(0, r.code());
    assertTrue(!r.out().contains("[COMMAND]"), r.out());
  }

  @Test
  void missingDataSaysHowToGetIt() {
    Run r = run("train", "--data", dir.resolve("nothing").toString());
    assertEquals(1, r.code());
    assertTrue(r.err().contains("apt-get install dataset-fashion-mnist"), r.err());
  }

  @Test
  void unknownModelIsAUsageErrorListingTheChoices() {
    Run r = run("summary", "--model", "resnet");
    assertEquals(2, r.code());
    assertTrue(
        r.err().contains("unknown model 'resnet'; choose one of [mlp, lenet, lstm]"), r.err());
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
    // Plain SGD keeps no state and one batch of all 40 images makes an epoch one step whatever
    // the shuffle, so one epoch resumed after one epoch is two epochs in one run.
    String[] sgd = {
      "train",
      "--data",
      data.toString(),
      "--batch-size",
      "40",
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
  void contextsAndLimitBelowOneAreRefused() throws Exception {
    Path data = data();
    Run contexts = run("train", "--data", data.toString(), "--contexts", "0");
    assertEquals(1, contexts.code());
    assertTrue(contexts.err().startsWith("--contexts must be at least 1, got 0"), contexts.err());
    Run limit = run("train", "--data", data.toString(), "--limit", "0");
    assertEquals(1, limit.code());
    assertTrue(limit.err().startsWith("--limit must be at least 1, got 0"), limit.err());
  }

  @Test
  void launchRefusesZeroWorkers() {
    Run r = run("launch", "--workers", "0", "--", "--model", "mlp");
    assertEquals(1, r.code());
    assertTrue(
        r.err().startsWith("--workers and --servers must be at least 1, got 0 and 1"), r.err());
  }
}
