package dev.kiln.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.kiln.runtime.exec.CallGuard;
import dev.kiln.runtime.optim.Sgd;
import dev.kiln.sample.models.FashionMlpModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The thread contract under stress, in the scenarios that crashed the JVM or gave wrong answers
 * before the contract existed: several threads forwarding one model, two threads training one
 * classifier, {@code close()} while another thread forwards, parameter reads and writes during a
 * forward, and (which always worked) one model per thread. Every call either gives exactly the
 * single-threaded answer or, under the default policy, is refused at once with the contract's
 * message; nothing crashes and nothing hangs.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConcurrencyTest {
  private static final String REFUSED = "a model serves one call at a time";

  private static float[] input(int batch, long seed) {
    Random r = new Random(seed);
    float[] x = new float[batch * 784];
    for (int i = 0; i < x.length; i++) {
      x[i] = r.nextFloat();
    }
    return x;
  }

  /** Runs {@code work} on {@code n} threads started together; returns what they threw. */
  private static List<Throwable> onThreads(int n, ThreadWork work) throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < n; t++) {
      int id = t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  start.await();
                  work.run(id);
                } catch (Throwable e) {
                  failures.add(e);
                }
              },
              "worker-" + t);
      threads.add(thread);
      thread.start();
    }
    start.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
    return new ArrayList<>(failures);
  }

  @FunctionalInterface
  private interface ThreadWork {
    void run(int thread) throws Exception;
  }

  @ParameterizedTest
  @EnumSource(CallGuard.Policy.class)
  void manyThreadsForwardingOneModelGetTheRightAnswerOrARefusal(CallGuard.Policy policy)
      throws Exception {
    for (int threads : new int[] {2, 8}) {
      try (FashionMlpModel m = FashionMlpModel.create();
          NDManager nd = NDManager.newBaseManager()) {
        m.runtime().threadPolicy(policy);
        float[] x = input(8, 1);
        float[] expected = m.forward(nd.create(x, new Shape(8, 784))).toFloatArray();
        AtomicInteger right = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        int calls = 1600 / threads;
        List<Throwable> failures =
            onThreads(
                threads,
                id -> {
                  try (NDManager local = NDManager.newBaseManager()) {
                    NDArray batch = local.create(x, new Shape(8, 784));
                    for (int i = 0; i < calls; i++) {
                      try {
                        float[] out = m.forward(batch).toFloatArray();
                        assertArrayEquals(
                            expected, out, 0f, "a forward on " + threads + " threads");
                        right.incrementAndGet();
                      } catch (IllegalStateException e) {
                        assertTrue(e.getMessage().contains(REFUSED), e.getMessage());
                        refused.incrementAndGet();
                      }
                    }
                  }
                });
        assertEquals(List.of(), failures);
        assertEquals(threads * calls, right.get() + refused.get());
        if (policy == CallGuard.Policy.SERIALIZED) {
          assertEquals(0, refused.get(), "serialized calls wait instead of failing");
        }
        assertTrue(right.get() > 0, "some calls ran");
      }
    }
  }

  @ParameterizedTest
  @EnumSource(CallGuard.Policy.class)
  void twoThreadsTrainingOneClassifierTrainItAsManyStepsAsSucceeded(CallGuard.Policy policy)
      throws Exception {
    float[] x = input(16, 2);
    int[] y = new int[16];
    for (int i = 0; i < y.length; i++) {
      y[i] = i % 10;
    }
    AtomicInteger steps = new AtomicInteger();
    float[] together;
    try (FashionMlpModel m = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.05f)) {
      m.runtime().threadPolicy(policy);
      List<Throwable> failures =
          onThreads(
              2,
              id -> {
                for (int i = 0; i < 60; i++) {
                  try {
                    m.classifier().trainBatch(x, y, sgd);
                    steps.incrementAndGet();
                  } catch (IllegalStateException e) {
                    assertTrue(e.getMessage().contains(REFUSED), e.getMessage());
                  }
                }
              });
      assertEquals(List.of(), failures);
      together = m.params().hiddenWeight().get();
    }
    try (FashionMlpModel alone = FashionMlpModel.create();
        Sgd sgd = new Sgd(0.05f)) {
      for (int i = 0; i < steps.get(); i++) {
        alone.classifier().trainBatch(x, y, sgd);
      }
      assertArrayEquals(
          alone.params().hiddenWeight().get(),
          together,
          1e-5f,
          steps.get() + " steps on two threads equal as many on one");
    }
    if (policy == CallGuard.Policy.SERIALIZED) {
      assertEquals(120, steps.get());
    }
  }

  @Test
  void closeWhileAnotherThreadForwardsNeverCrashes() throws Exception {
    Random r = new Random(3);
    float[] x = input(4, 3);
    for (int round = 0; round < 150; round++) {
      FashionMlpModel m = FashionMlpModel.create();
      CountDownLatch running = new CountDownLatch(1);
      List<Throwable> unexpected = new ArrayList<>();
      Thread worker =
          new Thread(
              () -> {
                try (NDManager nd = NDManager.newBaseManager()) {
                  NDArray batch = nd.create(x, new Shape(4, 784));
                  while (true) {
                    m.forward(batch);
                    running.countDown();
                  }
                } catch (IllegalStateException e) {
                  // Closed, being closed, or (a race on the guard) refused as concurrent; never a
                  // message about a thread '?' or a call 'null'.
                  String why = e.getMessage();
                  boolean expected =
                      why.equals("FashionMlpModel is closed")
                          || why.contains(" while the model is being closed")
                          || why.contains(REFUSED);
                  if (!expected || why.contains("'?'") || why.contains(".null")) {
                    unexpected.add(e);
                  }
                } catch (Throwable e) {
                  unexpected.add(e);
                }
                running.countDown();
              });
      worker.start();
      running.await();
      Thread.sleep(0, r.nextInt(1_000_000));
      m.close();
      worker.join(10_000);
      assertTrue(!worker.isAlive(), "the worker stopped");
      assertEquals(List.of(), unexpected, "round " + round);
      assertTrue(m.runtime().isClosed());
    }
  }

  @Test
  void parameterReadsAndWritesDuringForwardsAreOrderedOrRefused() throws Exception {
    try (FashionMlpModel m = FashionMlpModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      m.runtime().threadPolicy(CallGuard.Policy.SERIALIZED);
      float[] bias = m.params().logitsBias().get();
      float[] x = input(2, 4);
      List<Throwable> failures =
          onThreads(
              3,
              id -> {
                try (NDManager local = NDManager.newBaseManager()) {
                  for (int i = 0; i < 200; i++) {
                    if (id == 0) {
                      m.params().logitsBias().set(bias);
                    } else if (id == 1) {
                      assertArrayEquals(bias, m.params().logitsBias().get(), 0f);
                    } else {
                      float[] out = m.forward(local.create(x, new Shape(2, 784))).toFloatArray();
                      assertTrue(Arrays.stream(toBoxed(out)).allMatch(Float::isFinite));
                    }
                  }
                }
              });
      assertEquals(List.of(), failures);
    }
  }

  private static Float[] toBoxed(float[] v) {
    Float[] b = new Float[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = v[i];
    }
    return b;
  }

  @Test
  void oneModelPerThreadOnEightBatchSizesAllAgreeWithOneThread() throws Exception {
    float[][] expected = new float[8][];
    try (FashionMlpModel m = FashionMlpModel.create();
        NDManager nd = NDManager.newBaseManager()) {
      for (int t = 0; t < 8; t++) {
        expected[t] = m.forward(nd.create(input(t + 1, t), new Shape(t + 1, 784))).toFloatArray();
      }
    }
    List<Throwable> failures =
        onThreads(
            8,
            t -> {
              try (FashionMlpModel own = FashionMlpModel.create();
                  NDManager nd = NDManager.newBaseManager()) {
                NDArray batch = nd.create(input(t + 1, t), new Shape(t + 1, 784));
                for (int i = 0; i < 50; i++) {
                  assertArrayEquals(expected[t], own.forward(batch).toFloatArray(), 1e-6f);
                }
              }
            });
    assertEquals(List.of(), failures);
  }

  @Test
  void trainingOneModelWhileAnotherThreadPredictsWithAnother() throws Exception {
    float[] x = input(16, 5);
    int[] y = new int[16];
    try (FashionMlpModel trained = FashionMlpModel.create();
        FashionMlpModel served = FashionMlpModel.create();
        NDManager nd = NDManager.newBaseManager();
        Sgd sgd = new Sgd(0.05f)) {
      float[] expected = served.forward(nd.create(x, new Shape(16, 784))).toFloatArray();
      List<Throwable> failures =
          onThreads(
              2,
              id -> {
                try (NDManager local = NDManager.newBaseManager()) {
                  for (int i = 0; i < 100; i++) {
                    if (id == 0) {
                      trained.classifier().trainBatch(x, y, sgd);
                    } else {
                      assertArrayEquals(
                          expected,
                          served.forward(local.create(x, new Shape(16, 784))).toFloatArray(),
                          0f);
                    }
                  }
                }
              });
      assertEquals(List.of(), failures);
    }
  }
}
