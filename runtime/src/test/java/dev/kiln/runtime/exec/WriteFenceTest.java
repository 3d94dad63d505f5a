package dev.kiln.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.TestJvm;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.mxnet.HandleArray;
import dev.kiln.runtime.mxnet.NDArrayHandle;
import dev.kiln.runtime.mxnet.PreparedOp;
import dev.kiln.runtime.mxnet.WriteFence;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link WriteFence} and {@link Tensor#copyFromFenced} under each of MXNet's engines, each in a
 * fresh JVM: Java's write into an array waits for a reader queued before the fence, and readers
 * queued after the write see the new values.
 */
class WriteFenceTest {
  private static final int SIZE = 1 << 22;

  /**
   * The child: queues a copy out of {@code source} (a reader taking milliseconds), fences {@code
   * source} and at once writes new values into it; the copy must hold the old values.
   */
  public static void main(String[] args) {
    try (Tensor source = Tensor.zeros(Shape.of(SIZE));
        Tensor target = Tensor.zeros(Shape.of(SIZE))) {
      float[] ones = new float[SIZE];
      Arrays.fill(ones, 1f);
      float[] twos = new float[SIZE];
      Arrays.fill(twos, 2f);
      PreparedOp copy =
          new PreparedOp(
              "_copyto",
              new NDArrayHandle[] {source.handle()},
              new NDArrayHandle[] {target.handle()});
      source.copyFrom(ones);
      for (int round = 0; round < 20; round++) {
        float[] before = round % 2 == 0 ? ones : twos;
        float[] after = round % 2 == 0 ? twos : ones;
        copy.run(new String[0], new String[0]);
        WriteFence.queue(HandleArray.of(source.handle()), source.device());
        source.copyFromFenced(after);
        float[] copied = target.toFloatArray();
        for (int i = 0; i < SIZE; i++) {
          if (copied[i] != before[0]) {
            throw new AssertionError(
                "round "
                    + round
                    + ": element "
                    + i
                    + " copied as "
                    + copied[i]
                    + ", the write did not wait for the reader");
          }
        }
        copy.run(new String[0], new String[0]);
        if (target.toFloatArray()[SIZE - 1] != after[0]) {
          throw new AssertionError("round " + round + ": a later reader missed the write");
        }
      }
    }
    System.out.println("OK");
  }

  @ParameterizedTest
  @ValueSource(strings = {"ThreadedEnginePerDevice", "ThreadedEngine", "NaiveEngine"})
  void aFencedWriteWaitsForEarlierReaders(String engine) throws IOException, InterruptedException {
    TestJvm.Outcome child =
        TestJvm.run(WriteFenceTest.class, Map.of("MXNET_ENGINE_TYPE", engine), 60);
    String out = child.output();
    assertTrue(child.finished(), engine + ": the child exits within 60 s\n" + out);
    assertEquals(0, child.exitValue(), out);
    assertTrue(out.contains("OK"), out);
  }
}
