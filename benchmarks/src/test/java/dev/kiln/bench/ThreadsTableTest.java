package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadsTableTest {
  @Test
  void countsAreOneTwoAndAllEachOnce() {
    assertEquals(List.of(1, 2), ThreadsTable.counts(1));
    assertEquals(List.of(1, 2), ThreadsTable.counts(2));
    assertEquals(List.of(1, 2, 16), ThreadsTable.counts(16));
  }

  @Test
  void ratiosAreTakenRoundByRoundAgainstOneThread() {
    Map<Integer, List<ThreadsTable.Run>> byCount = new LinkedHashMap<>();
    // Round 1: 100 and 150 steps/s (1.5); round 2: 50 and 100 (2.0); round 3: 200 and 200 (1.0).
    byCount.put(2, List.of(run(2, 1, 150), run(2, 2, 100), run(2, 3, 200)));
    byCount.put(1, List.of(run(1, 1, 100), run(1, 2, 50), run(1, 3, 200)));
    String table = ThreadsTable.format(byCount);
    assertTrue(
        table.startsWith(
            "| workload | batch | implementation | 1 thread, steps/s | 2 threads, steps/s | 2 / 1"
                + " | CPU ms a step, 1 thread | CPU ms a step, 2 threads | wait for a core, ms a"
                + " step, 1 thread | wait for a core, ms a step, 2 threads |\n"),
        table);
    // Pooled medians would give 150 / 100 = 1.5 too, but the range shows the pairing: 1.0–2.0.
    assertTrue(
        table.contains(
            "| lenet | 64 | floor | 100 (50–200) | 150 (100–200) | 1.50 (1.00–2.00) | 10.00"
                + " (10.00–10.00) | 20.00 (20.00–20.00) | 1.00 (1.00–1.00) | 2.00 (2.00–2.00) |"),
        table);
  }

  /**
   * 10 steps at {@code perSecond} in round {@code round}, 10 ms of CPU and 1 ms of wait a step per
   * thread.
   */
  private static ThreadsTable.Run run(int threads, int round, double perSecond) {
    return new ThreadsTable.Run(
        new Sample(Workload.LENET, Impl.FLOOR, 64, round, 10, 10 / perSecond, 0.1 * threads),
        0.01 * threads);
  }
}
