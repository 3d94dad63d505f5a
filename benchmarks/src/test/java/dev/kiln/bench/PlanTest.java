package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class PlanTest {
  @Test
  void planEntriesParse() {
    assertEquals(
        new BenchWorker.Planned(Workload.LENET1632, 64, 60, 20),
        BenchWorker.Planned.parse("lenet1632:64:60:20"));
    assertThrows(IllegalArgumentException.class, () -> BenchWorker.Planned.parse("mlp:32:10"));
  }

  @Test
  void quickRunsAreShorterButNeverEmpty() {
    for (Workload w : Workload.values()) {
      for (int b : w.batches()) {
        int[] full = Bench.stepsFor(w, b, false);
        int[] quick = Bench.stepsFor(w, b, true);
        assertTrue(quick[0] >= 5 && quick[0] <= full[0] && quick[1] >= 3, w + "@" + b);
      }
    }
  }

  @Test
  void extrasOnlyOnTheMlpAndTheVitAgainstItsHandWrittenAttention() {
    assertEquals(
        Set.of(
            Impl.FLOOR,
            Impl.FWD_BWD,
            Impl.FWD_BWD_NO_COPY,
            Impl.KILN,
            Impl.KILN_LOSS,
            Impl.KILN_NO_CHECK,
            Impl.KILN_SYNC_COPY,
            Impl.DJL),
        Impl.of(Workload.MLP));
    assertEquals(Set.of(Impl.FLOOR, Impl.FWD_BWD, Impl.KILN, Impl.DJL), Impl.of(Workload.LSTM));
    assertEquals(Set.of(Impl.KILN, Impl.KILN_HAND, Impl.DJL), Impl.of(Workload.VIT));
  }

  @Test
  void labelsAndNamesBothNameAnImplementation() {
    assertEquals(Impl.FWD_BWD, Impl.of("fwd+bwd only"));
    assertEquals(Impl.KILN_NO_CHECK, Impl.of("KILN_NO_CHECK"));
    assertEquals(Workload.LSTM, Workload.of("lstm"));
    assertEquals(
        64 * 28 * 28,
        java.util.Arrays.stream(Workload.LSTM.inputShape(64)).reduce(1, (a, b) -> a * b));
  }
}
