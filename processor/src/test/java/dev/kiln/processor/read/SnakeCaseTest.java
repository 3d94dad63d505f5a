package dev.kiln.processor.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A custom layer's parameter names as the snake-case part of MXNet names. */
class SnakeCaseTest {
  @Test
  void wordsAreJoinedByUnderscoresInLowerCase() {
    assertEquals("weight", CustomLayerReader.snakeCase("weight"));
    assertEquals("gate_weight", CustomLayerReader.snakeCase("gateWeight"));
    assertEquals("gate_weight", CustomLayerReader.snakeCase("gate_weight"));
    assertEquals("w", CustomLayerReader.snakeCase("W"));
    assertEquals("weight_ih", CustomLayerReader.snakeCase("weightIH"));
    assertEquals("ih_weight", CustomLayerReader.snakeCase("IHWeight"));
    assertEquals("x2_weight", CustomLayerReader.snakeCase("x2Weight"));
  }
}
