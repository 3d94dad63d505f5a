package dev.kiln.sample.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThroughputTableTest {
  private static void add(List<Sample> out, Impl impl, int batch, double... stepsPerSecond) {
    for (int i = 0; i < stepsPerSecond.length; i++) {
      // 100 steps in 100/rate seconds: the table must give back the rate.
      out.add(new Sample(impl, batch, i + 1, 100, 100 / stepsPerSecond[i]));
    }
  }

  @Test
  void oneRowPerBatchWithMediansRangesAndRatios() {
    List<Sample> samples = new ArrayList<>();
    add(samples, Impl.KILN, 256, 300, 200, 250);
    add(samples, Impl.FLOOR, 32, 1000, 1200, 1100);
    add(samples, Impl.KILN, 32, 500, 600, 550);
    add(samples, Impl.DJL, 32, 400, 440, 420);
    add(samples, Impl.FLOOR, 256, 500, 400, 450);
    add(samples, Impl.DJL, 256, 100, 120, 125);
    add(samples, Impl.KILN_LOSS, 32, 440, 480, 400);
    add(samples, Impl.KILN_LOSS, 256, 225, 230, 200);
    assertEquals(
        """
        | batch | floor steps/s | kiln steps/s | djl steps/s | kiln+loss steps/s | kiln/floor \
        | kiln/djl | kiln+loss/floor | kiln/floor, best runs | runs |
        |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
        | 32 | 1100 (1000–1200) | 550 (500–600) | 420 (400–440) | 440 (400–480) | 0.50 | 1.31 \
        | 0.40 | 0.50 | 3 |
        | 256 | 450 (400–500) | 250 (200–300) | 120 (100–125) | 225 (200–230) | 0.56 | 2.08 \
        | 0.50 | 0.60 | 3 |
        """,
        ThroughputTable.format(samples));
  }

  @Test
  void missingImplementationGivesDashes() {
    List<Sample> samples = new ArrayList<>();
    add(samples, Impl.KILN, 32, 10, 20);
    assertEquals(
        """
        | batch | floor steps/s | kiln steps/s | djl steps/s | kiln+loss steps/s | kiln/floor \
        | kiln/djl | kiln+loss/floor | kiln/floor, best runs | runs |
        |---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
        | 32 | – | 15 (10–20) | – | – | – | – | – | – | 2 |
        """,
        ThroughputTable.format(samples));
  }

  @Test
  void unequalRepetitionCountsAreShown() {
    List<Sample> samples = new ArrayList<>();
    add(samples, Impl.FLOOR, 32, 10, 20);
    add(samples, Impl.KILN, 32, 10);
    add(samples, Impl.DJL, 32, 10, 20);
    assertEquals(
        "| 32 | 15 (10–20) | 10 (10–10) | 15 (10–20) | – | 0.67 | 0.67 | – | 0.50 | 2/1 |",
        ThroughputTable.format(samples).lines().toList().get(2));
  }
}
