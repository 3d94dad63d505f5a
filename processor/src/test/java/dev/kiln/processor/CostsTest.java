package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.annotations.Act;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compile-time FLOPs and activation sizes, against counts done by hand. */
class CostsTest {
  private static NodeSpec node(LayerSpec layer) {
    return new NodeSpec("n", layer, List.of(), null, null, "@X", false);
  }

  @Test
  void denseCountsTwoPerMultiplyAddPlusBiasAndActivation() {
    // [BATCH, 784] -> 128 units with ReLU: 2·784·128 + 128 + 128.
    assertEquals(200_960, Costs.flops(node(new LayerSpec.Dense(128, Act.RELU, false, true)),
        List.of(TShape.of(-1, 784)), TShape.of(-1, 128)));
  }

  @Test
  void convolutionCountsEveryWindowOverEveryInputChannel() {
    // LeNet's first layer: 6 filters 5x5 over [1, 28, 28] -> [6, 24, 24] = 3456 outputs,
    // each 25 multiply-adds, plus a bias each.
    LayerSpec.Conv2D conv = new LayerSpec.Conv2D(6, List.of(5), List.of(1), List.of(0),
        List.of(1), Act.NONE, false);
    assertEquals(2 * 3456 * 25 + 3456, Costs.flops(node(conv), List.of(TShape.of(-1, 1, 28, 28)),
        TShape.of(-1, 6, 24, 24)));
  }

  @Test
  void poolingCountsItsWindowAndActivationsAreFourBytesPerValue() {
    LayerSpec.Pool pool = new LayerSpec.Pool("max", List.of(2), List.of(), List.of(0));
    assertEquals(6 * 12 * 12 * 4, Costs.flops(node(pool), List.of(TShape.of(-1, 6, 24, 24)),
        TShape.of(-1, 6, 12, 12)));
    assertEquals(4L * 6 * 12 * 12, Costs.activationBytes(TShape.of(-1, 6, 12, 12)));
  }

  @Test
  void humanReadableFigures() {
    assertEquals("3728 B", Costs.human(3728, "B"));
    assertEquals("201.0 K", Costs.human(200_960, ""));
    assertEquals("12.3 M", Costs.human(12_300_000, ""));
    assertEquals("?", Costs.human(-1, ""));
  }
}
