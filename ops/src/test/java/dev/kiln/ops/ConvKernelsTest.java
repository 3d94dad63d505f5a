package dev.kiln.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The rule for which convolutions oneDNN runs on a blocked kernel under MXNet 1.9.1. */
class ConvKernelsTest {
  @Test
  void filtersInWholeBlocksOf16AreBlocked() {
    assertTrue(ConvKernels.blocked(16));
    assertTrue(ConvKernels.blocked(64));
    assertFalse(ConvKernels.blocked(20));
    assertFalse(ConvKernels.blocked(50));
    assertFalse(ConvKernels.blocked(8));
  }

  @Test
  void theFewestBlockedFiltersRoundUpToTheNextBlock() {
    assertEquals(32, ConvKernels.blockedFilters(20));
    assertEquals(64, ConvKernels.blockedFilters(50));
    assertEquals(16, ConvKernels.blockedFilters(16));
    assertEquals(16, ConvKernels.blockedFilters(1));
    assertEquals(48, ConvKernels.blockedFilters(33));
  }

  @Test
  void aFilterCountIsReadFromItsAttributeText() {
    assertEquals(OptionalInt.of(20), ConvKernels.filters(" 20 "));
    assertEquals(OptionalInt.empty(), ConvKernels.filters("twenty"));
    assertEquals(OptionalInt.empty(), ConvKernels.filters(null));
  }
}
