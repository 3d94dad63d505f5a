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
        List.of(
            "inspect", "import", "export", "quantize", "serve", "loadtest", "launch", "bench")) {
      assertTrue(r.out().contains("\n  " + command + " "), command + " in " + r.out());
    }
    for (String sample : List.of("train", "eval", "predict", "summary")) {
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
    assertEquals(2, r.code());
    assertEquals(
        "--workers must be at least 1, got 0\n"
            + "Usage: kiln launch [OPTIONS]; `kiln launch --help` lists them\n",
        r.err());
  }

  @Test
  void serveTakesACheckpointOrARepositoryAndAKnownControlMode() {
    Run neither = run("serve", "--port", "0");
    assertEquals(2, neither.code(), neither.err());
    assertTrue(
        neither.err().startsWith("give --checkpoint PREFIX (one model) or --repository DIR"),
        neither.err());
    Run both =
        run("serve", "--checkpoint", dir.resolve("a").toString(), "--repository", dir.toString());
    assertEquals(2, both.code(), both.err());
    assertTrue(both.err().startsWith("give --checkpoint or --repository, not both"), both.err());
    Run mode = run("serve", "--repository", dir.toString(), "--model-control", "sometimes");
    assertEquals(2, mode.code(), mode.err());
    assertTrue(
        mode.err().startsWith("--model-control sometimes: choose none, explicit or poll"),
        mode.err());
    Run named = run("serve", "--repository", dir.toString(), "--model", "m");
    assertEquals(2, named.code(), named.err());
    assertTrue(named.err().startsWith("--model names a --checkpoint's model"), named.err());
    Run loadNone = run("serve", "--repository", dir.toString(), "--load-model", "m");
    assertEquals(2, loadNone.code(), loadNone.err());
    assertTrue(loadNone.err().startsWith("--load-model takes effect under"), loadNone.err());
    Run missing = run("serve", "--repository", dir.resolve("nowhere").toString());
    assertTrue(missing.code() != 0, missing.err());
    assertTrue(missing.err().contains("there is no folder there"), missing.err());
  }

  @Test
  void everyValueOutOfRangeIsAUsageMistakeWithTheUsageLine() {
    String none = dir.resolve("none").toString();
    String[][] cases = {
      {"serve", "--port 99999", "--port must be in 0..65535, got 99999"},
      {"serve", "--port -1", "--port must be in 0..65535, got -1"},
      {"serve", "--replicas 0", "--replicas must be at least 1, got 0"},
      {"serve", "--max-batch 0", "--max-batch must be at least 1, got 0"},
      {"serve", "--max-delay-ms -1", "--max-delay-ms must be at least 0, got -1"},
      {"serve", "--max-queue 0", "--max-queue must be at least 1, got 0"},
      {"serve", "--max-body-mb 0", "--max-body-mb must be at least 1, got 0"},
      {"serve", "--model a/b", "--model a/b: a model name takes letters, digits"},
      {"quantize", "--to x --calibration-batches 0", "--calibration-batches must be at least 1"},
      {"quantize", "--to x --batch-size 0", "--batch-size must be at least 1, got 0"},
      {"quantize", "--to x --calibration best", "--calibration best: choose entropy or minmax"},
      {"bench", "--rounds 0", "--rounds must be at least 1, got 0"},
      {"bench", "--millis 0", "--millis must be at least 1, got 0"},
      {"bench", "--batch-sizes 1,0", "--batch-sizes must be at least 1, got 0"},
      {"loadtest", "--requests 0", "--requests must be at least 1, got 0"},
      {"loadtest", "--clients 0", "--clients must be at least 1, got 0"},
      {"loadtest", "--per-request 0", "--per-request must be at least 1, got 0"},
      {"loadtest", "--max-delay-ms -1", "--max-delay-ms must be at least 0, got -1"},
    };
    for (String[] c : cases) {
      List<String> args = new java.util.ArrayList<>(List.of(c[0], "--checkpoint", none));
      args.addAll(List.of(c[1].split(" ")));
      Run r = run(args.toArray(String[]::new));
      assertEquals(2, r.code(), c[0] + " " + c[1] + ": " + r.err());
      assertTrue(r.err().startsWith(c[2]), c[0] + " " + c[1] + ": " + r.err());
      assertTrue(
          r.err()
              .endsWith(
                  "\nUsage: kiln " + c[0] + " [OPTIONS]; `kiln " + c[0] + " --help` lists them\n"),
          c[0] + " " + c[1] + ": " + r.err());
    }
    String[][] launch = {
      {"--servers 0", "--servers must be at least 1, got 0"},
      {"--port 70000", "--port must be in 1..65535, got 70000"},
      {"--timeout 0", "--timeout must be at least 1, got 0"},
      {"--stall -1", "--stall must be at least 0, got -1"},
      {"--dry-run", "--dry-run prints the commands of a --hosts job; give --hosts"},
    };
    for (String[] c : launch) {
      List<String> args = new java.util.ArrayList<>(List.of("launch"));
      args.addAll(List.of(c[0].split(" ")));
      args.addAll(List.of("--", "true"));
      Run r = run(args.toArray(String[]::new));
      assertEquals(2, r.code(), c[0] + ": " + r.err());
      assertTrue(r.err().startsWith(c[1]), c[0] + ": " + r.err());
      assertTrue(r.err().contains("\nUsage: kiln launch [OPTIONS]"), c[0] + ": " + r.err());
    }
  }

  @Test
  @org.junit.jupiter.api.Timeout(120)
  void serveOnAPortInUseSaysSoInOneLine() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 2)) {
      m.save(prefix);
    }
    try (java.net.ServerSocket taken =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      Run r =
          run(
              "serve",
              "--checkpoint",
              prefix.toString(),
              "--input",
              "pixels=BATCH,784",
              "--port",
              Integer.toString(port));
      assertEquals(2, r.code(), r.err());
      assertEquals(1, r.err().lines().count(), r.err());
      assertTrue(
          r.err().startsWith("--port " + port + ": cannot listen on 127.0.0.1:" + port + " ("),
          r.err());
      assertTrue(r.err().contains("give another --port, or --port 0 for any free one"), r.err());
    }
  }

  @Test
  void quantizeListsEveryFileItWrites() throws Exception {
    Path data = Path.of("/usr/share/datasets/fashion-mnist");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        java.nio.file.Files.isDirectory(data), "Fashion-MNIST is not installed");
    Path prefix = dir.resolve("mlp");
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 2)) {
      m.save(prefix);
    }
    Path to = dir.resolve("mlp-int8");
    Run r =
        run(
            "quantize",
            "--checkpoint",
            prefix.toString(),
            "--input",
            "pixels=BATCH,784",
            "--calibration-batches",
            "1",
            "--batch-size",
            "32",
            "--to",
            to.toString());
    assertEquals(0, r.code(), r.err());
    String wrote = r.out().lines().filter(l -> l.startsWith("wrote ")).findFirst().orElse("");
    for (String file : List.of("-symbol.json", "-0000.params", "-0000.params.sha256")) {
      Path written = Path.of(to + file);
      assertTrue(java.nio.file.Files.isRegularFile(written), written + " not written");
      assertTrue(wrote.contains(written.toString()), written + " not in: " + r.out());
    }
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

  /**
   * A checkpoint that records no input shapes (as MXNet's and Gluon's exports write them; here a
   * model's symbol written over its checkpoint's, without the shapes its save records) needs them
   * given, and says so.
   */
  @Test
  void aCheckpointWithoutInputShapesNeedsThemAndSaysSo() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 2)) {
      m.save(prefix);
      java.nio.file.Files.writeString(dir.resolve("mlp-symbol.json"), m.symbolJson());
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
