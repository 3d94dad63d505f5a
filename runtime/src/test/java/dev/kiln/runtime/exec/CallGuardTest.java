package dev.kiln.runtime.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The messages of the thread contract, with the other thread held at a known point. */
class CallGuardTest {
  @Test
  void aCallRacingAnotherNamesBothThreadsAndTheCallInProgress() throws Exception {
    CallGuard guard = new CallGuard("DemoModel");
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread t =
        new Thread(
            () -> {
              try (CallGuard.Scope s = guard.enter("fit")) {
                inside.countDown();
                await(release);
              }
            },
            "trainer");
    t.start();
    try {
      assertTrue(inside.await(10, TimeUnit.SECONDS));
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> guard.enter("forward"));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "DemoModel.forward called on thread '"
                      + Thread.currentThread().getName()
                      + "' while thread 'trainer' is inside DemoModel.fit: a model serves one "
                      + "call at a time"),
          e.getMessage());
    } finally {
      release.countDown();
      t.join();
    }
  }

  @Test
  void aCallRacingCloseSaysTheModelIsBeingClosedNeverNullOrAQuestionMark() throws Exception {
    CallGuard guard = new CallGuard("DemoModel");
    CountDownLatch releasing = new CountDownLatch(1);
    CountDownLatch finish = new CountDownLatch(1);
    Thread closer =
        new Thread(
            () ->
                guard.close(
                    () -> {
                      releasing.countDown();
                      await(finish);
                    }),
            "closer");
    closer.start();
    try {
      assertTrue(releasing.await(10, TimeUnit.SECONDS));
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> guard.enter("forward"));
      assertEquals(
          "DemoModel.forward called on thread '"
              + Thread.currentThread().getName()
              + "' while the model is being closed by thread 'closer': a closed model takes no "
              + "more calls",
          e.getMessage());
      assertFalse(e.getMessage().contains("null") || e.getMessage().contains("'?'"));
    } finally {
      finish.countDown();
      closer.join();
    }
    IllegalStateException after =
        assertThrows(IllegalStateException.class, () -> guard.enter("forward"));
    assertEquals("DemoModel is closed", after.getMessage());
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
