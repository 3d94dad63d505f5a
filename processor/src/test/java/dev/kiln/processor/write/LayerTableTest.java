package dev.kiln.processor.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The figures of the layer table, and literals as a person writes them. */
class LayerTableTest {
  @Test
  void humanReadableFigures() {
    assertEquals("3728 B", LayerTable.human(3728, "B"));
    assertEquals("201.0 K", LayerTable.human(200_960, ""));
    assertEquals("12.3 M", LayerTable.human(12_300_000, ""));
    assertEquals("?", LayerTable.human(-1, ""));
  }

  @Test
  void decimalsAreShortAndInScientificNotationOnlyWhenJavaPrintsThemSo() {
    assertEquals("0.001", Literals.decimal(1e-3));
    assertEquals("0.9", Literals.decimal(0.9));
    assertEquals("1e-5", Literals.decimal(1e-5));
    assertEquals("2.5e-7", Literals.decimal(2.5e-7));
  }
}
