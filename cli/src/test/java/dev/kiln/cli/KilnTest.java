package dev.kiln.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.Init;
import dev.kiln.runtime.infer.Predictor;
import dev.kiln.sample.models.FashionMlpModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code kiln} command in process: its commands, versions, usage errors (exit 2, one usage
 * line), refusals (exit 1, one line), how {@code launch} resolves its program, and {@code bench}.
 */
class KilnTest {
  @TempDir Path dir;

  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      // Made after System.out is replaced: picocli's own output (help, version) goes there too.
      CommandLine cl = Kiln.commandLine();
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
  void helpListsEveryCommand() {
    Run r = run("--help");
    assertEquals(0, r.code(), r.err());
    for (String command :
        List.of("inspect", "import", "quantize", "serve", "loadtest", "launch", "bench")) {
      assertTrue(r.out().contains("\n  " + command + " "), command + " in " + r.out());
    }
    for (String sample : List.of("train", "eval", "predict", "export", "summary")) {
      assertFalse(
          r.out().contains("\n  " + sample + " "), "the sample's " + sample + ": " + r.out());
    }
  }

  @Test
  void everyCommandPrintsTheBuildsVersion() {
    for (String[] args :
        new String[][] {{"-V"}, {"--version"}, {"serve", "-V"}, {"bench", "--version"}}) {
      Run r = run(args);
      assertEquals(0, r.code(), r.err());
      assertEquals(
          "kiln " + System.getProperty("kiln.version") + "\n",
          r.out(),
          java.util.Arrays.toString(args));
    }
  }

  @Test
  void benchHelpShowsNoPhantomCommand() {
    Run r = run("bench", "--help");
    assertEquals(0, r.code());
    assertFalse(r.out().contains("[COMMAND]"), r.out());
  }

  @Test
  void launchWithoutTheDoubleDashSaysWhereTheProgramGoes() {
    Run r = run("launch", "--workers", "2", "train", "--model", "mlp");
    assertEquals(2, r.code());
    assertTrue(
        r.err()
            .contains(
                "; the program and its arguments go after --: launch --workers 2 --servers 1 --"
                    + " train --model mlp"),
        r.err());
    assertEquals(1, r.err().lines().filter(l -> l.startsWith("Usage: ")).count(), r.err());
  }

  @Test
  void launchRefusesZeroWorkers() {
    Run r = run("launch", "--workers", "0", "--", "--model", "mlp");
    assertEquals(1, r.code());
    assertEquals("--workers and --servers must be at least 1, got 0 and 1\n", r.err());
  }

  @Test
  void launchRunsAnyProgramAsItIsAndTrainAsTheSampleAppsTrain() {
    assertEquals(
        List.of("python3", "train.py", "--epochs", "2"),
        Launch.command(List.of("python3", "train.py", "--epochs", "2")));
    for (List<String> words :
        List.of(List.of("train", "--model", "lenet"), List.of("--model", "lenet"))) {
      List<String> c = Launch.command(words);
      assertTrue(c.get(0).endsWith("/bin/java"), c.toString());
      assertEquals(
          List.of("dev.kiln.sample.Main", "train", "--model", "lenet"),
          c.subList(c.size() - 4, c.size()));
      assertEquals(ProgramClassPath.get(), c.get(c.indexOf("-cp") + 1));
    }
    List<String> bare = Launch.command(List.of());
    assertEquals("train", bare.get(bare.size() - 1));
  }

  @Test
  void aModelsCheckpointNeedsItsInputShapeAndSaysSo() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 2)) {
      m.save(prefix);
    }
    Run r = run("bench", "--checkpoint", prefix.toString(), "--rounds", "1", "--millis", "1");
    assertEquals(1, r.code(), r.err());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith("--checkpoint " + prefix + ": checkpoint "), r.err());
    assertTrue(
        r.err().contains("argument 'pixels' has no array")
            && r.err().contains("give its shape with --input NAME=DIMS"),
        r.err());

    Run bad = run("bench", "--checkpoint", prefix.toString(), "--input", "pixels=784");
    assertEquals(2, bad.code(), bad.err());
    assertTrue(
        bad.err()
            .startsWith(
                "Invalid value for option '--input': 'pixels=784': exactly one dimension must be"
                    + " BATCH\n"),
        bad.err());

    Run missing = run("serve", "--checkpoint", dir.resolve("none").toString());
    assertEquals(1, missing.code(), missing.err());
    assertTrue(missing.err().contains("there is no checkpoint there"), missing.err());
  }

  @Test
  void benchTimesAModelsCheckpointFusedAndUnfused() throws Exception {
    Path prefix = dir.resolve("mlp");
    float[] x = new float[784];
    float[] expected;
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 2);
        Predictor p = m.predictor()) {
      m.save(prefix);
      expected = p.predict(1, x)[0];
    }
    Run r =
        run(
            "bench",
            "--checkpoint",
            prefix + "-0000.params",
            "--input",
            "pixels=BATCH,784",
            "--batch-sizes",
            "1,4",
            "--rounds",
            "2",
            "--millis",
            "20");
    assertEquals(0, r.code(), r.err());
    List<String> rows =
        r.out().lines().filter(l -> l.matches("\\| (un)?fused \\| \\d+ .*")).toList();
    assertEquals(4, rows.size(), r.out());
    assertTrue(rows.get(0).startsWith("| fused | 1 | "), r.out());
    assertTrue(rows.get(3).startsWith("| unfused | 4 | "), r.out());
    // The checkpoint read with the given shape predicts what the model does.
    try (Predictor loaded =
        Predictor.load(
            prefix,
            dev.kiln.runtime.infer.InferenceOptions.DEFAULT,
            List.of(
                new dev.kiln.runtime.infer.Port(
                    "pixels", dev.kiln.runtime.graph.Shape.of(-1, 784))))) {
      float[] got = loaded.predict(1, x)[0];
      for (int i = 0; i < expected.length; i++) {
        assertEquals(expected[i], got[i], 1e-6f);
      }
    }
  }
}
