package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BenchLineTest {
  @Test
  void formatsAndParsesBack() {
    String line = BenchLine.format("mode", "rss", "impl", "kiln", "peakRssKib", 123456L);
    assertEquals("@bench mode=rss impl=kiln peakRssKib=123456", line);
    assertEquals(
        Map.of("mode", "rss", "impl", "kiln", "peakRssKib", "123456"), BenchLine.parse(line));
  }

  @Test
  void otherLinesAreNotResults() {
    assertNull(BenchLine.parse("[09:10:53] Subgraph backend MKLDNN is activated."));
  }

  @Test
  void valuesWithSpacesAndOddArgumentsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> BenchLine.format("k", "a b"));
    assertThrows(IllegalArgumentException.class, () -> BenchLine.format("k"));
    assertThrows(IllegalArgumentException.class, () -> BenchLine.parse("@bench novalue"));
  }
}
