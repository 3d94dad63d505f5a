package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EngineProfileTest {
  /**
   * MXNet 1.9.1's table, as printed after 1,000 MLP steps at batch 32 (shortened, and with its
   * columns' padding cut to fit here).
   */
  private static final String TABLE =
      String.join(
          "\n",
          "",
          "Profile Statistics:",
          "\tNote the difference in units for different entries.",
          "MXNET_C_API",
          "=================",
          "Name        Total Count   Time (ms)   Min Time (ms)   Max Time (ms)   Avg Time (ms)",
          "----        -----------   ---------   -------------   -------------   -------------",
          "MXNDArrayWaitToRead   3000   1689.8590   0.0000   123.4450   0.5633",
          "MXNet C API Calls   12001   12.0010   0.0010   12.0010   6.0000",
          "",
          "operator",
          "=================",
          "Name        Total Count   Time (ms)   Min Time (ms)   Max Time (ms)   Avg Time (ms)",
          "----        -----------   ---------   -------------   -------------   -------------",
          "WaitForVar   935   168.8070   0.0010   14.3520   0.1805",
          "[FullyConnected,Activation,FullyConnected,SoftmaxOutput]   1000   92.8580   0.0450"
              + "   8.6840   0.0929",
          "");

  @Test
  void everyRowOfEverySectionIsReadWithItsCountAndTotalTime() {
    Map<String, EngineProfile.Entry> stats = EngineProfile.parse(TABLE);
    assertEquals(
        List.of(
            new EngineProfile.Entry("MXNET_C_API", "MXNDArrayWaitToRead", 3000, 1689.859),
            new EngineProfile.Entry("MXNET_C_API", "MXNet C API Calls", 12001, 12.001),
            new EngineProfile.Entry("operator", "WaitForVar", 935, 168.807),
            new EngineProfile.Entry(
                "operator",
                "[FullyConnected,Activation,FullyConnected,SoftmaxOutput]",
                1000,
                92.858)),
        List.copyOf(stats.values()));
    assertEquals(3000, stats.get("MXNET_C_API/MXNDArrayWaitToRead").count());
  }

  @Test
  void anEmptyReportHasNoRows() {
    assertEquals(Map.of(), EngineProfile.parse("\nProfile Statistics:\n"));
  }

  /** The worker's lines for one loop: "section/name" to calls per step. */
  private static Map<String, Double> perStep(List<Map<String, String>> lines, Impl impl) {
    Map<String, Double> out = new java.util.TreeMap<>();
    for (Map<String, String> r : lines) {
      if (r.get("impl").equals(impl.name())) {
        out.put(
            r.get("section") + "/" + URLDecoder.decode(r.get("name"), StandardCharsets.UTF_8),
            Double.parseDouble(r.get("perStep")));
      }
    }
    return out;
  }

  @Test
  void mxnetCountsTheCallsAndOperatorsOfEachLoopsSteps() {
    // Surefire may run tests from a manifest-only jar; its real class path is in this property.
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<Map<String, String>> lines =
        new ChildJvm(classpath, 1, 300)
            .run(
                List.of("-DOPT_OUT_TRACKING=true"),
                List.of("ENGINE", "--batch-sizes", "8", "--steps", "40", "--warmup", "10"));
    for (Impl impl : BenchWorker.ENGINE_IMPLS) {
      Map<String, Double> calls = perStep(lines, impl);
      assertEquals(1.0, calls.get("MXNET_C_API/MXExecutorForward"), impl + ": " + calls);
      assertEquals(1.0, calls.get("MXNET_C_API/MXExecutorBackwardEx"), impl + ": " + calls);
    }
    Map<String, Double> kiln = perStep(lines, Impl.KILN);
    // The update and the copy of the weights the gradient check may put back.
    assertEquals(2.0, kiln.get("MXNET_C_API/MXImperativeInvoke"), kiln.toString());
    assertEquals(1.0, kiln.get("operator/_copy"), kiln.toString());
    assertEquals(1.0, kiln.get("operator/kiln.WriteFence"), kiln.toString());
    Map<String, Double> kernels = perStep(lines, Impl.FWD_BWD_NO_COPY);
    assertEquals(null, kernels.get("MXNET_C_API/MXImperativeInvoke"), kernels.toString());
  }
}
