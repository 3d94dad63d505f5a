package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The scaling model's arithmetic on round figures, and its tables' shape. */
class ScalingModelTest {
  /** 250,000 parameters: 1 MB pushed and 1 MB pulled by each worker per step. */
  private static final ScalingModel.Model MODEL =
      new ScalingModel.Model("m", 250_000, 32, 40, "measured");

  private static final ScalingModel.Link LINK = new ScalingModel.Link("l", 10);

  @Test
  void theServersLinkCarriesEveryWorkersShareAndSlicingDividesIt() {
    // 2 workers on 1 server: 2 MB cross the server's link each way, at 10 ms per MB.
    assertEquals(20, ScalingModel.commMillis(MODEL, LINK, 2, 1), 1e-9);
    assertEquals(60, ScalingModel.stepMillis(MODEL, LINK, 2, 1), 1e-9);
    assertEquals(2 * 40 / 60.0, ScalingModel.speedUp(MODEL, LINK, 2, 1), 1e-9);
    // Sliced over 2 servers, each server's link carries what a worker's does.
    assertEquals(10, ScalingModel.commMillis(MODEL, LINK, 2, 2), 1e-9);
    // More servers than workers change nothing more: the worker's own link is the limit.
    assertEquals(10, ScalingModel.commMillis(MODEL, LINK, 2, 8), 1e-9);
  }

  @Test
  void distSyncStopsPayingWhenCommunicationOutgrowsCompute() {
    // 4 workers: 40 ms of both, efficiency exactly one half; 8 workers: 80 ms of push and pull.
    assertEquals(0.5, ScalingModel.speedUp(MODEL, LINK, 4, 1) / 4, 1e-9);
    assertEquals(8, ScalingModel.stopsPaying(MODEL, LINK, 1, 1024));
    assertEquals(-1, ScalingModel.stopsPaying(MODEL, new ScalingModel.Link("fast", 0.01), 1, 64));
    // A batch per worker whose compute covers 16 workers' 160 ms: 4x the examples.
    assertEquals(128, ScalingModel.batchForHalfEfficiency(MODEL, LINK, 16, 1));
    // Or 4 servers: 40 ms each.
    assertEquals(4, ScalingModel.serversForHalfEfficiency(MODEL, LINK, 16));
    // A link so slow that a worker's own 1 MB takes longer than compute: no server count helps.
    assertEquals(
        -1, ScalingModel.serversForHalfEfficiency(MODEL, new ScalingModel.Link("s", 50), 16));
  }

  @Test
  void theTablesHaveARowPerModelAndLink() {
    String table =
        ScalingModel.table(
            List.of(MODEL), List.of(LINK, new ScalingModel.Link("k", 1)), List.of(2, 4, 8));
    List<String> lines = table.lines().toList();
    assertEquals(3, lines.size(), table);
    assertTrue(lines.get(1).contains("1.3x 60.0ms"), table);
    assertTrue(lines.get(1).endsWith("at 8 workers"), table);
    String remedies = ScalingModel.remedies(List.of(MODEL), List.of(LINK), 16);
    // 2bit: 16 workers' 160 ms of exchange fall to 85 (the pushes to 1/16), step 125 ms: 5.12x.
    assertEquals(16 * 40 / 125.0, ScalingModel.speedUpTwoBit(MODEL, LINK, 16, 1), 1e-9);
    assertTrue(
        remedies.lines().toList().get(1).matches("m +l +128 +4, 32 +5\\.1x \\(3\\.2x plain\\)"),
        remedies);
  }
}
