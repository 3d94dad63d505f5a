package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The benchmark harness's command line: its help and its usage errors. */
class BenchCommandTest {
  private record Run(int code, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream saved = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      CommandLine cl = Bench.commandLine();
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
  void benchHelpShowsNoPhantomCommand() {
    Run r = run("--help");
    assertEquals(0, r.code());
    assertFalse(r.out().contains("[COMMAND]"), r.out());
    for (String part :
        new String[] {"dist", "custom", "precision", "padding", "inference", "import"}) {
      assertTrue(r.out().contains("\n  " + part + " "), part + " in " + r.out());
    }
  }

  @Test
  void everyCommandPrintsTheBuildsVersion() {
    for (String[] args : new String[][] {{"-V"}, {"inference", "--version"}}) {
      Run r = run(args);
      assertEquals(0, r.code(), r.err());
      assertTrue(r.out().matches("bench \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R"), r.out());
    }
  }

  @Test
  void aBadOptionIsExitTwoWithOneUsageLine() {
    Run r = run("--parts", "NOTHING");
    assertEquals(2, r.code());
    assertEquals(1, r.err().lines().filter(l -> l.startsWith("Usage: bench")).count(), r.err());
    Run sub = run("precision", "--no-such-option");
    assertEquals(2, sub.code());
    assertTrue(sub.err().contains("Usage: bench precision [OPTIONS]"), sub.err());
  }
}
