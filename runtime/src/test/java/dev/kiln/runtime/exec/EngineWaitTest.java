package dev.kiln.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.TestJvm;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The gradient check's wait ({@link dev.kiln.runtime.mxnet.PriorityWait}, under {@link
 * FiniteCheck}) under each of MXNet's engines, each in a fresh JVM: it sees a write that was only
 * queued when it started, and the JVM still exits (a first version, which called back into Java
 * from MXNet's threads, hung the JVM's exit).
 */
class EngineWaitTest {
  private static final int SIZE = 1 << 22;

  /** The child: queues a copy of a NaN array into a zero one, and checks the target at once. */
  public static void main(String[] args) {
    try (Tensor source = Tensor.zeros(Shape.of(SIZE));
        Tensor target = Tensor.zeros(Shape.of(SIZE));
        FiniteCheck check = new FiniteCheck(List.of(target))) {
      float[] values = new float[SIZE];
      Arrays.fill(values, Float.NaN);
      source.copyFrom(values);
      for (int round = 0; round < 20; round++) {
        target.fill(0f);
        if (check.firstNonFinite(true) != -1) {
          throw new AssertionError("zeros seen as non-finite");
        }
        // Queued on MXNet's engine; the check must wait for it, then read the copied NaNs.
        new PreparedOp(
                "_copyto",
                new NDArrayHandle[] {source.handle()},
                new NDArrayHandle[] {target.handle()})
            .run(new String[0], new String[0]);
        if (check.firstNonFinite(true) != 0) {
          throw new AssertionError("round " + round + ": the check did not wait for the copy");
        }
      }
    }
    System.out.println("OK");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ThreadedEnginePerDevice", "ThreadedEngine", "NaiveEngine"})
  void theCheckWaitsForQueuedWritesAndTheJvmExits(String engine)
      throws IOException, InterruptedException {
    TestJvm.Outcome child =
        TestJvm.run(EngineWaitTest.class, Map.of("MXNET_ENGINE_TYPE", engine), 60);
    String out = child.output();
    assertTrue(child.finished(), engine + ": the child exits within 60 s\n" + out);
    assertEquals(0, child.exitValue(), out);
    assertTrue(out.contains("OK"), out);
  }
}
