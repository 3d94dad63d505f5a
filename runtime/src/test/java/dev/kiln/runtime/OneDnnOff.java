package dev.kiln.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Named checks of a test class run once more on MXNet's own kernels: in a JVM started with {@code
 * MXNET_MKLDNN_ENABLED=0} (MXNet reads it once, when it loads), whose main is the test class's and
 * calls {@link #main}.
 */
final class OneDnnOff {
  private OneDnnOff() {}

  /** Runs every check in order and prints {@code PASSED <name>} after each: a test class's main. */
  static void main(Map<String, Consumer<NDManager>> checks) {
    try (NDManager nd = NDManager.newBaseManager()) {
      for (String name : checks.keySet().stream().sorted().toList()) {
        checks.get(name).accept(nd);
        System.out.println("PASSED " + name);
      }
    }
  }

  /** Runs {@code main}'s checks in a JVM without oneDNN and asserts that each of them passed. */
  static void assertAllPass(Class<?> main, Map<String, Consumer<NDManager>> checks)
      throws IOException, InterruptedException {
    TestJvm.Outcome child = TestJvm.run(main, Map.of("MXNET_MKLDNN_ENABLED", "0"), 300);
    String out = child.output();
    assertTrue(child.finished(), out);
    assertEquals(0, child.exitValue(), out);
    for (String name : checks.keySet()) {
      assertTrue(out.contains("PASSED " + name), name + ":\n" + out);
    }
    assertEquals(
        checks.size(), Arrays.stream(out.split("\n")).filter(l -> l.startsWith("PASSED")).count());
  }
}
