package dev.kiln.serving;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Reading one sample out of Prometheus text, as {@code loadtest} reads the server's CPU. */
class LoadTestMetricTest {
  private static final String TEXT =
      """
      # HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.
      # TYPE process_cpu_seconds_total counter
      process_cpu_seconds_total 12.34
      process_cpu_seconds_total_other 99
      kiln_requests_total{code="200",model="lenet"} 7
      """;

  @Test
  void theUnlabelledSampleIsReadByItsExactName() {
    assertEquals(12.34, LoadTest.metric(TEXT, "process_cpu_seconds_total"));
    assertEquals(99, LoadTest.metric(TEXT, "process_cpu_seconds_total_other"));
  }

  @Test
  void aMissingSampleIsNaN() {
    assertTrue(Double.isNaN(LoadTest.metric(TEXT, "process_open_fds")));
    assertTrue(Double.isNaN(LoadTest.metric(TEXT, "kiln_requests_total")), "labelled samples");
  }
}
