package dev.kiln.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {
  @Test
  void medianOfOddCountIsTheMiddleValue() {
    assertEquals(3.0, Stats.median(List.of(5.0, 1.0, 3.0, 9.0, 2.0)));
  }

  @Test
  void medianOfEvenCountIsTheMeanOfTheMiddleTwo() {
    assertEquals(2.5, Stats.median(List.of(4.0, 1.0, 3.0, 2.0)));
  }

  @Test
  void minAndMax() {
    assertEquals(1.0, Stats.min(List.of(4.0, 1.0, 3.0)));
    assertEquals(4.0, Stats.max(List.of(4.0, 1.0, 3.0)));
  }

  @Test
  void noValuesIsAnError() {
    assertThrows(IllegalArgumentException.class, () -> Stats.median(List.of()));
  }
}
