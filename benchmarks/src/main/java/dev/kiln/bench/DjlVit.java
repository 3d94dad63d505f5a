package dev.kiln.bench;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.AbstractBlock;
import ai.djl.nn.Activation;
import ai.djl.nn.Block;
import ai.djl.nn.LambdaBlock;
import ai.djl.nn.Parameter;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.convolutional.Conv2d;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.LayerNorm;
import ai.djl.nn.transformer.TransformerEncoderBlock;
import ai.djl.training.ParameterStore;
import ai.djl.util.PairList;

/**
 * The sample's {@code FashionVit} as DJL blocks, sizes for sizes: the 7x7 strided {@code Conv2d} of
 * 64 filters, the reshape and transpose to 16 tokens, a learned positional table added to them,
 * four of DJL's {@code TransformerEncoderBlock} (width 64, 4 heads, a GELU feed-forward layer of
 * 128, dropout 0), a {@code LayerNorm}, the mean of the tokens and a {@code Linear} of 10. DJL's
 * encoder block is post-norm and normalises with a {@code BatchNorm} over the last axis where the
 * sample's {@code VitBlock} is pre-norm with {@code LayerNorm}s: the same operations a step, in
 * another order.
 */
final class DjlVit {
  private DjlVit() {}

  /** The network. */
  static Block block() {
    SequentialBlock b =
        new SequentialBlock()
            .add(
                Conv2d.builder()
                    .setKernelShape(new Shape(7, 7))
                    .optStride(new Shape(7, 7))
                    .setFilters(64)
                    .build())
            .add(
                new LambdaBlock(
                    x -> new NDList(x.singletonOrThrow().reshape(-1, 64, 16).transpose(0, 2, 1)),
                    "tokens"))
            .add(new Positions(16, 64));
    for (int i = 0; i < 4; i++) {
      b.add(new TransformerEncoderBlock(64, 4, 128, 0f, Activation::gelu));
    }
    return b.add(LayerNorm.builder().axis(2).build())
        .add(new LambdaBlock(x -> new NDList(x.singletonOrThrow().mean(new int[] {1})), "pooled"))
        .add(Linear.builder().setUnits(10).build());
  }

  /** A learned table {@code [steps, width]} added to every example of {@code [N, steps, width]}. */
  static final class Positions extends AbstractBlock {
    private final Parameter table;

    Positions(int steps, int width) {
      table =
          addParameter(
              Parameter.builder()
                  .setName("positions")
                  .setType(Parameter.Type.WEIGHT)
                  .optShape(new Shape(steps, width))
                  .build());
    }

    @Override
    protected NDList forwardInternal(
        ParameterStore store, NDList inputs, boolean training, PairList<String, Object> params) {
      NDArray x = inputs.singletonOrThrow();
      return new NDList(x.add(store.getValue(table, x.getDevice(), training)));
    }

    @Override
    public Shape[] getOutputShapes(Shape[] inputs) {
      return inputs;
    }
  }
}
