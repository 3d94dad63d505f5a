package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThroughputTableTest {
  /** One sample per round: 100 steps in 100/rate seconds, so the table gives back the rate. */
  private static void add(
      List<Sample> out, Workload w, Impl impl, int batch, double... stepsPerSecond) {
    for (int i = 0; i < stepsPerSecond.length; i++) {
      out.add(new Sample(w, impl, batch, i + 1, 100, 100 / stepsPerSecond[i]));
    }
  }

  @Test
  void stepsPerSecondHasOneRowPerWorkloadAndBatchInEnumOrder() {
    List<Sample> samples = new ArrayList<>();
    add(samples, Workload.LSTM, Impl.KILN, 64, 30, 50, 40);
    add(samples, Workload.MLP, Impl.KILN, 256, 300, 200, 250);
    add(samples, Workload.MLP, Impl.FLOOR, 32, 1000, 1200, 1100);
    assertEquals(
        """
        | workload | batch | floor | fwd+bwd only | kiln | kiln+loss | kiln, no grad check | djl \
        | rounds |
        |---|---:|---:|---:|---:|---:|---:|---:|---:|
        | mlp | 32 | 1100 (1000–1200) | – | – | – | – | – | 3 |
        | mlp | 256 | – | – | 250 (200–300) | – | – | – | 3 |
        | lstm | 64 | – | – | 40 (30–50) | – | – | – | 3 |
        """,
        ThroughputTable.stepsPerSecond(samples));
  }

  @Test
  void theHandWrittenAttentionHasColumnsOnlyWhereItWasMeasured() {
    List<Sample> samples = new ArrayList<>();
    add(samples, Workload.VIT, Impl.KILN, 64, 20, 18);
    add(samples, Workload.VIT, Impl.KILN_HAND, 64, 10, 12);
    assertTrue(
        ThroughputTable.stepsPerSecond(samples)
            .contains("| djl | kiln, hand-written attention | rounds |\n"));
    assertTrue(
        ThroughputTable.ratios(samples)
            .contains("| vit | 64 | – | – | – | 1.75 (1.50–2.00) | – | – | – |\n"),
        ThroughputTable.ratios(samples));
  }

  @Test
  void ratiosAreTakenRoundByRoundNotFromTheMedians() {
    List<Sample> samples = new ArrayList<>();
    // Round 2 is slow for both: per round kiln/floor is 1.2, 1.2, 1.2.
    add(samples, Workload.MLP, Impl.FLOOR, 32, 1000, 500, 900);
    add(samples, Workload.MLP, Impl.KILN, 32, 1200, 600, 1080);
    add(samples, Workload.MLP, Impl.FWD_BWD, 32, 1500, 1500, 1500);
    String row = ThroughputTable.ratios(samples).lines().toList().get(2);
    assertEquals(
        "| mlp | 32 | 1.20 (1.20–1.20) | 0.72 (0.40–0.80) | – | – | – " + "| 0.60 (0.33–0.67) |",
        row);
  }

  @Test
  void cpuRatiosUseTheCpuSeconds() {
    List<Sample> samples = new ArrayList<>();
    // Same wall time; the floor used twice the CPU of Kiln: kiln/floor by CPU is 2.
    samples.add(new Sample(Workload.MLP, Impl.FLOOR, 32, 1, 100, 1.0, 2.0));
    samples.add(new Sample(Workload.MLP, Impl.KILN, 32, 1, 100, 1.0, 1.0));
    assertEquals(
        "| mlp | 32 | 1.00 (1.00–1.00) | – | – | – | – | – |",
        ThroughputTable.ratios(samples, false).lines().toList().get(2));
    assertEquals(
        "| mlp | 32 | 2.00 (2.00–2.00) | – | – | – | – | – |",
        ThroughputTable.ratios(samples, true).lines().toList().get(2));
  }

  @Test
  void unmeasuredCpuGivesDashes() {
    List<Sample> samples = new ArrayList<>();
    add(samples, Workload.MLP, Impl.FLOOR, 32, 10);
    add(samples, Workload.MLP, Impl.KILN, 32, 10);
    assertEquals(
        "| mlp | 32 | – | – | – | – | – | – |",
        ThroughputTable.ratios(samples, true).lines().toList().get(2));
  }

  @Test
  void perRoundSkipsRoundsOneSideLacks() {
    assertEquals(
        List.of(2.0),
        ThroughputTable.perRound(Map.of(1, 4.0, 2, 6.0), Map.of(1, 2.0), (a, b) -> a / b));
    assertNull(ThroughputTable.perRound(Map.of(1, 4.0), Map.of(2, 2.0), (a, b) -> a / b));
    assertNull(ThroughputTable.perRound(null, Map.of(2, 2.0), (a, b) -> a / b));
  }

  @Test
  void checkCostIsTheDifferenceOfStepTimesAndItsShare() {
    List<Sample> samples = new ArrayList<>();
    // 1000 µs with the check, 900 without: 100 µs, 10 % of the step.
    add(samples, Workload.MLP, Impl.KILN, 32, 1000, 1000);
    add(samples, Workload.MLP, Impl.KILN_NO_CHECK, 32, 1e6 / 900, 1e6 / 900);
    add(samples, Workload.LENET, Impl.KILN, 64, 10);
    String table = ThroughputTable.checkCost(samples);
    assertEquals(
        "| mlp | 32 | 1000 (1000–1000) | 900 (900–900) | 100 (100–100) " + "| 10.0 (10.0–10.0) |",
        table.lines().toList().get(2));
    assertEquals(3, table.lines().count(), table);
  }

  @Test
  void noCheckCostWithoutBothVariants() {
    List<Sample> samples = new ArrayList<>();
    add(samples, Workload.MLP, Impl.KILN, 32, 1000);
    assertTrue(ThroughputTable.checkCost(samples).isEmpty());
  }

  @Test
  void cellIsMedianAndRangeOrADash() {
    assertEquals("2.00 (1.00–4.00)", ThroughputTable.cell(List.of(4.0, 1.0, 2.0), "%.2f"));
    assertEquals("–", ThroughputTable.cell(null));
    assertEquals("–", ThroughputTable.cell(List.of()));
  }

  @Test
  void theTargetsAreCheckedAtTheMedianOfTheRoundByRoundRatio() {
    List<Sample> samples = new ArrayList<>();
    // Batch 32: ratios 0.5, 0.7, 0.65 by round (median 0.65, meets 0.6 in two rounds of three).
    add(samples, Workload.MLP, Impl.FWD_BWD_NO_COPY, 32, 1000, 1000, 2000);
    add(samples, Workload.MLP, Impl.KILN, 32, 500, 700, 1300);
    // Batch 256: ratios 0.9, 0.7, 0.75 (median 0.75, short of 0.8).
    add(samples, Workload.MLP, Impl.FWD_BWD_NO_COPY, 256, 100, 100, 100);
    add(samples, Workload.MLP, Impl.KILN, 256, 90, 70, 75);
    // No target for the LeNet: no row.
    add(samples, Workload.LENET, Impl.KILN, 64, 10, 10, 10);
    assertEquals(
        """
        | workload | batch | ratio | median (min–max) | target | median meets it \
        | rounds at or above |
        |---|---:|---|---:|---:|---|---:|
        | mlp | 32 | kiln/fwd+bwd no copy-in | 0.65 (0.50–0.70) | ≥ 0.60 (issue 38) | yes \
        | 2 of 3 |
        | mlp | 256 | kiln/fwd+bwd no copy-in | 0.75 (0.70–0.90) | ≥ 0.80 (issue 38) | NO \
        | 1 of 3 |
        """,
        ThroughputTable.targets(samples));
  }

  @Test
  void targetsWithoutTheirMeasurementsPrintNothing() {
    List<Sample> samples = new ArrayList<>();
    add(samples, Workload.MLP, Impl.KILN, 32, 500);
    assertEquals("", ThroughputTable.targets(samples));
  }
}
