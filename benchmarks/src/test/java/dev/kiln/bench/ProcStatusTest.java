package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcStatusTest {
  private static final String STATUS =
      """
      Name:\tjava
      VmPeak:\t 9096036 kB
      VmHWM:\t  170312 kB
      VmRSS:\t  165004 kB
      Threads:\t30
      """;

  @Test
  void readsFieldsInKib() {
    assertEquals(170312, ProcStatus.field(STATUS, "VmHWM"));
    assertEquals(165004, ProcStatus.field(STATUS, "VmRSS"));
  }

  @Test
  void missingOrOddFieldsAreErrors() {
    assertThrows(IllegalArgumentException.class, () -> ProcStatus.field(STATUS, "VmSwap"));
    assertThrows(IllegalArgumentException.class, () -> ProcStatus.field(STATUS, "Threads"));
  }

  @Test
  void thisProcessHasAPeakAtLeastItsCurrentSize() {
    long peak = ProcStatus.peakRssKib();
    if (peak >= 0) {
      assertTrue(peak >= ProcStatus.rssKib() / 2, "peak " + peak);
    }
  }
}
