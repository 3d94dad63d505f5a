package dev.kiln.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The kernel quirks the units declare, as the runtime's passes read them. */
class NativeTest {
  @Test
  void theWeightsOneDnnReordersOrRelabelsAreTheLayersSecondInput() {
    assertEquals(1, Native.lookup("Convolution").reorderedInput());
    assertEquals(1, Native.lookup("FullyConnected").reorderedInput());
    assertEquals(1, Native.lookup("Deconvolution").reorderedInput());
    assertEquals(1, Native.lookup("Deconvolution").relabelledInput());
    assertEquals(-1, Native.lookup("Convolution").relabelledInput());
    assertEquals(-1, Native.lookup("softmax").reorderedInput());
  }

  @Test
  void mixedPrecisionComputesConvolutionsAndDenseLayersInBfloat16() {
    assertEquals(List.of("Convolution", "FullyConnected"), Native.withBf16(Native.Bf16.LOW));
    assertEquals(
        List.of("Activation", "Flatten", "Pooling", "Reshape"),
        Native.withBf16(Native.Bf16.FOLLOW));
    assertEquals(Native.Bf16.FLOAT32, Native.lookup("BatchNorm").bf16());
  }

  @Test
  void channelsAreKeptByPerChannelOperatorsOnlyAsTheirAttributesSay() {
    assertTrue(keeps("Activation", Map.of("act_type", "relu")));
    assertTrue(keeps("BatchNorm", Map.of()));
    assertTrue(keeps("BatchNorm", Map.of("axis", "1")));
    assertFalse(keeps("BatchNorm", Map.of("axis", "3")));
    assertFalse(keeps("BatchNorm", Map.of("output_mean_var", "True")));
    assertTrue(keeps("LeakyReLU", Map.of("act_type", "elu")));
    assertFalse(keeps("LeakyReLU", Map.of("act_type", "prelu")));
    assertTrue(keeps("Pooling", Map.of("layout", "NCHW")));
    assertFalse(keeps("Pooling", Map.of("layout", "NHWC")));
    assertFalse(keeps("Convolution", Map.of()));
    assertFalse(keeps("Concat", Map.of()));
  }

  private static boolean keeps(String op, Map<String, String> attrs) {
    return Native.lookup(op).keepsChannelsOf(attrs::get);
  }
}
