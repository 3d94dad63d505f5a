package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.ops.RecurrentOp;
import dev.kiln.runtime.exec.BoundExecutor;
import dev.kiln.runtime.graph.Shape;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kiln in a JVM where nothing started DJL's engine: every other test shares a JVM in which some
 * test has used DJL (whose engine start also initialises MXNet), which once hid that Kiln's own
 * start left MXNet's legacy operators unregistered and every recurrent model failed in a user's
 * program. The child builds, binds and runs an LSTM and a GRU through Kiln alone.
 */
class FreshJvmTest {
  /** The child: one line per model, then OK. */
  public static void main(String[] args) {
    for (RecurrentOp spec : List.of(RecurrentOp.lstm(4), RecurrentOp.gru(4))) {
      try (ModelRuntime m =
          new ModelRuntime(
              "SeqModel", RecurrentRuntimeTest.graph(spec, 5, 3), Init.normal(0.4f), 7)) {
        BoundExecutor e = m.executor(List.of(Shape.of(2, 5, 3)));
        float[] x = new float[2 * 5 * 3];
        java.util.Arrays.fill(x, 0.5f);
        e.input(0).copyFrom(x);
        e.forward(false);
        float[] y = e.output(0).toFloatArray();
        System.out.println(spec.mode() + " " + y.length + " " + Float.isFinite(y[y.length - 1]));
      }
    }
    System.out.println("OK");
  }

  @Test
  void recurrentModelsBuildAndRunWithoutDjlsEngine() throws IOException, InterruptedException {
    TestJvm.Outcome child = TestJvm.run(FreshJvmTest.class, Map.of(), 120);
    String out = child.output();
    assertTrue(child.finished(), "the child finished within 120 s\n" + out);
    assertEquals(0, child.exitValue(), out);
    assertTrue(out.contains("LSTM 40 true"), out);
    assertTrue(out.contains("GRU 40 true"), out);
    assertTrue(out.contains("OK"), out);
  }
}
