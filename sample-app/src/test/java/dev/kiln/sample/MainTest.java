package dev.kiln.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.data.IdxFiles;
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
    IdxFiles.write(d.resolve("t10k-labels-idx1-ubyte"), IdxFiles.labels(0, 1, 2, 3, 4, 5, 6, 7,
        8, 9), false);
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
    Run train = run("train", "--data", data.toString(), "--epochs", "2", "--batch-size", "8",
        "--out", out.toString());
    assertEquals(0, train.code(), train.err());
    assertTrue(train.out().contains("epoch 2/2"), train.out());
    assertTrue(train.out().contains("test accuracy"), train.out());
    for (String f : new String[] {"mlp-symbol.json", "mlp-0000.params", "metrics.csv",
        "training.png"}) {
      assertTrue(Files.size(out.resolve(f)) > 0, f);
    }
    Run eval = run("eval", "--data", data.toString(), "--checkpoint", out.resolve("mlp")
        .toString());
    assertEquals(0, eval.code(), eval.err());
    assertTrue(eval.out().contains("on 10 test images: loss"), eval.out());
    Run predict = run("predict", "--data", data.toString(), "--checkpoint",
        out.resolve("mlp").toString(), "--count", "3");
    assertEquals(0, predict.code(), predict.err());
    assertEquals(3, predict.out().lines().filter(l -> l.contains("predicted")).count());
    Run export = run("export", "--checkpoint", out.resolve("mlp").toString(), "--to",
        dir.resolve("exported").toString());
    assertEquals(0, export.code(), export.err());
    assertEquals(-1L, Files.mismatch(out.resolve("mlp-0000.params"),
        dir.resolve("exported-0000.params")));
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
    assertTrue(r.err().contains("unknown model 'resnet'; choose one of [mlp, lenet]"), r.err());
  }

  @Test
  void summaryPrintsTheCompileTimeTable() {
    Run r = run("summary");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("total") && r.out().contains("101770"), r.out());
  }
}
