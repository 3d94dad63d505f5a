package dev.kiln.runtime.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The built-in listeners, driven with hand-made events. */
class ListenerTest {
  private static EpochStats epoch(int n, double loss) {
    return new EpochStats(n, loss, 0.5, new Evaluation(loss, 0.5, 10), 1.0);
  }

  @Test
  void earlyStoppingWaitsForPatienceEpochsWithoutImprovement() {
    EarlyStopping s = new EarlyStopping(2, 0.01);
    FitContext c = new FitContext("Mlp", 10, 1, 1);
    s.onEpochEnd(c, epoch(1, 1.0));
    s.onEpochEnd(c, epoch(2, 0.5));
    s.onEpochEnd(c, epoch(3, 0.495));
    assertNull(c.stopReason());
    s.onEpochEnd(c, epoch(4, 0.6));
    assertEquals("no improvement for 2 epochs (best loss 0.5000 at epoch 2)", c.stopReason());
  }

  @Test
  void nanGuardStopsOnInfinityToo() {
    FitContext c = new FitContext("Mlp", 1, 9, 90);
    new NanGuard().onBatchEnd(c, new BatchStats(1, 7, Double.POSITIVE_INFINITY, 0, 10));
    assertTrue(c.stopReason().startsWith("loss is Infinity at epoch 1, batch 7"), c.stopReason());
  }
}
