package dev.kiln.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.annotations.Act;
import dev.kiln.annotations.PoolConvention;
import dev.kiln.ops.rule.TShape;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compile-time FLOPs, against counts done by hand. */
class CostsTest {
  @Test
  void denseCountsTwoPerMultiplyAddPlusBiasAndActivation() {
    // [BATCH, 784] -> 128 units with ReLU: 2·784·128 + 128 + 128.
    assertEquals(
        200_960,
        new DenseOp(128, Act.RELU, false, true)
            .flops(List.of(TShape.of(-1, 784)), TShape.of(-1, 128)));
  }

  @Test
  void convolutionCountsEveryWindowOverEveryInputChannel() {
    // LeNet's first layer: 6 filters 5x5 over [1, 28, 28] -> [6, 24, 24] = 3456 outputs,
    // each 25 multiply-adds, plus a bias each.
    ConvOp conv =
        new ConvOp(2, 6, List.of(5), List.of(1), List.of(0), List.of(1), 1, Act.NONE, false);
    assertEquals(
        2 * 3456 * 25 + 3456,
        conv.flops(List.of(TShape.of(-1, 1, 28, 28)), TShape.of(-1, 6, 24, 24)));
  }

  @Test
  void aGroupedConvolutionSeesOnlyItsGroupsChannels() {
    // Depthwise over 8 channels, 3-wide 1-D kernel, no bias: [8, 10] -> [8, 8]; each output
    // reads 1 channel x 3 taps.
    ConvOp conv =
        new ConvOp(1, 8, List.of(3), List.of(1), List.of(0), List.of(1), 8, Act.NONE, true);
    assertEquals(2 * 64 * 3, conv.flops(List.of(TShape.of(-1, 8, 10)), TShape.of(-1, 8, 8)));
  }

  @Test
  void aTransposedConvolutionSpreadsEveryInputOverItsWindow() {
    // [2, 3, 3] -> 4 filters, 2x2 kernel, stride 2: [4, 6, 6]; each of the 18 inputs meets
    // 4 x 2 x 2 weights, plus a bias per output.
    DeconvOp deconv =
        new DeconvOp(
            4, List.of(2), List.of(2), List.of(0), List.of(0), List.of(1), 1, Act.NONE, false);
    assertEquals(
        2 * 18 * 16 + 144, deconv.flops(List.of(TShape.of(-1, 2, 3, 3)), TShape.of(-1, 4, 6, 6)));
  }

  @Test
  void poolingCountsItsWindow() {
    PoolOp pool =
        new PoolOp(PoolOp.Type.MAX, List.of(2), List.of(), List.of(0), PoolConvention.VALID);
    assertEquals(
        6 * 12 * 12 * 4, pool.flops(List.of(TShape.of(-1, 6, 24, 24)), TShape.of(-1, 6, 12, 12)));
  }

  @Test
  void oneDimensionalPoolingCountsItsWindowAlongTheWidth() {
    // [3, 20] -> windows of 3, stride 2, pad 1: [3, 10], 3 reads each.
    PoolOp pool =
        new PoolOp(PoolOp.Type.AVG, List.of(3), List.of(2), List.of(1), PoolConvention.FULL);
    assertEquals(3 * 10 * 3, pool.flops(List.of(TShape.of(-1, 3, 20)), TShape.of(-1, 3, 10)));
  }

  @Test
  void globalPoolingReadsEveryValueOnce() {
    assertEquals(
        8 * 5 * 5,
        GlobalPoolOp.max().flops(List.of(TShape.of(-1, 8, 5, 5)), TShape.of(-1, 8, 1, 1)));
  }

  @Test
  void localResponseNormalisationSumsItsWindowForEveryValue() {
    // [8, 4, 4] = 128 values; a window of 5 squares and sums (10), then 4 more per value.
    assertEquals(
        128 * 14,
        new LrnOp(5, 1e-4, 0.75, 2).flops(List.of(TShape.of(-1, 8, 4, 4)), TShape.of(-1, 8, 4, 4)));
  }

  @Test
  void aParametricReluComparesAndScalesEveryValue() {
    assertEquals(
        2 * 8 * 5 * 5,
        new PReluOp().flops(List.of(TShape.of(-1, 8, 5, 5)), TShape.of(-1, 8, 5, 5)));
  }

  @Test
  void lookupsAndViewsCostNothing() {
    assertEquals(0, new EmbeddingOp(50, 8).flops(List.of(TShape.of(-1, 6)), TShape.of(-1, 6, 8)));
    assertEquals(
        0, new ConcatOp(1).flops(List.of(TShape.of(-1, 4), TShape.of(-1, 4)), TShape.of(-1, 8)));
  }
}
