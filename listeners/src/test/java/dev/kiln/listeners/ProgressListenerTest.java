package dev.kiln.listeners;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.runtime.train.BatchStats;
import dev.kiln.runtime.train.EpochStats;
import dev.kiln.runtime.train.Evaluation;
import dev.kiln.runtime.train.FitContext;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress listener, driven with hand-made events. */
class ProgressListenerTest {
  private static EpochStats epoch(int n, double loss) {
    return new EpochStats(n, loss, 0.5, new Evaluation(loss, 0.5, 10), 1.0);
  }

  @Test
  void progressLogsEveryNBatchesAndEachEpochWithoutATerminal() {
    List<String> lines = new ArrayList<>();
    ProgressListener p = new ProgressListener(null, lines::add, 2);
    FitContext c = new FitContext("Mlp", 3, 4, 40);
    for (int b = 1; b <= 4; b++) {
      p.onBatchEnd(c, new BatchStats(1, b, b, 0.5, 10));
    }
    p.onEpochEnd(c, epoch(1, 0.25));
    assertEquals(
        List.of(
            "Mlp epoch 1/3 batch 2/4 loss 1.5000",
            "Mlp epoch 1/3 batch 4/4 loss " + "2.5000",
            "Mlp epoch 1/3  train loss 0.2500 acc 0.5000  validation loss 0.2500 acc "
                + "0.5000  1.0 s"),
        lines);
  }

  @Test
  void progressDrawsABarOnATerminal() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ProgressListener p =
        new ProgressListener(new PrintStream(out, true, StandardCharsets.UTF_8), line -> {}, 100);
    FitContext c = new FitContext("Mlp", 2, 3, 30);
    for (int b = 1; b <= 3; b++) {
      p.onBatchEnd(c, new BatchStats(2, b, 0.75, 0.5, 10));
    }
    p.onEpochEnd(c, epoch(2, 0.75));
    String bar = out.toString(StandardCharsets.UTF_8);
    assertTrue(bar.contains("epoch 2/2"), bar);
    assertTrue(bar.contains("3/3"), bar);
    assertTrue(bar.contains("loss 0.7500"), bar);
  }

  @Test
  void theRunningLossFitsEightyColumnsInALongEpoch() throws InterruptedException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ProgressListener p =
        new ProgressListener(new PrintStream(out, true, StandardCharsets.UTF_8), line -> {}, 100);
    FitContext c = new FitContext("FashionMlpModel", 10, 1875, 60000);
    for (int b = 1; b <= 1000; b++) {
      p.onBatchEnd(c, new BatchStats(10, b, 0.4012, 0.5, 32));
    }
    Thread.sleep(1200); // a redraw with a speed and an elapsed time
    p.onBatchEnd(c, new BatchStats(10, 1001, 0.4012, 0.5, 32));
    p.onEpochEnd(c, epoch(10, 0.4012));
    String bar = out.toString(StandardCharsets.UTF_8);
    String last = "";
    for (String line : bar.split("\r|\n")) {
      if (line.contains("1001/1875")) {
        last = line;
      }
    }
    assertTrue(last.length() <= 80, last.length() + " columns: " + last);
    assertTrue(last.contains("loss 0.4012"), last);
    assertTrue(last.contains("[="), "room for the bar itself: " + last);
  }
}
