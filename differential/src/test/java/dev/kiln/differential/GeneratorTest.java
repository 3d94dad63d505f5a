package dev.kiln.differential;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The generator is deterministic and covers the layer library: over many seeds every layer and
 * every attribute form it knows is drawn. (That every drawn model compiles and runs is what {@link
 * DifferentialTest} checks.) Prints how often each was drawn.
 */
class GeneratorTest {
  private static final int DRAWS = 2000;

  /** Every feature the generator must draw at least once in {@value #DRAWS} models. */
  private static final List<String> REQUIRED =
      List.of(
          "Input.rank2",
          "Input.rank3",
          "Input.rank4",
          "Input.rank5",
          "Input.indices",
          "inputs=2",
          "inputs=3",
          "Dense",
          "Dense.noBias",
          "Dense.flatten=false",
          "Dense.activation=RELU",
          "Dense.activation=SIGMOID",
          "Dense.activation=TANH",
          "Dense.activation=SOFTRELU",
          "Dense.activation=SOFTSIGN",
          "Conv2D",
          "Conv2D.stride",
          "Conv2D.pad",
          "Conv2D.dilation",
          "Conv2D.noBias",
          "Conv2D.kernel={h,w}",
          "Conv2D.kernel=1",
          "Conv2D.kernel=7",
          "Conv2D.filters=32-64",
          "Conv2D.activation=RELU",
          "Conv2D.groups",
          "Conv1D",
          "Conv1D.dilation",
          "Conv1D.groups",
          "Deconv2D",
          "Deconv2D.stride",
          "Deconv2D.pad",
          "Deconv2D.outputPad",
          "Deconv2D.groups",
          "Clip",
          "Clip.oneSided",
          "Multiply",
          "Multiply.broadcast",
          "Subtract",
          "Subtract.broadcast",
          "Divide",
          "Divide.broadcast",
          "Maximum",
          "Maximum.broadcast",
          "Broadcast.sameTwice",
          "MatMul",
          "MatMul.gram",
          "MatMul.projection",
          "MatMul.transposeA",
          "MatMul.transposeB",
          "MatMul.rank3",
          "MatMul.rank4",
          "Transpose",
          "Transpose.rank3",
          "Transpose.rank4",
          "Transpose.rank5",
          "Transpose.negative",
          "Slice",
          "Slice.end",
          "Slice.negativeEnd",
          "Mean",
          "Mean.keepDims",
          "Mean.allButBatch",
          "Sum",
          "Sum.keepDims",
          "Sum.allButBatch",
          "MaxPool",
          "MaxPool.stride",
          "MaxPool.pad",
          "AvgPool",
          "AvgPool.stride",
          "AvgPool.pad",
          "MaxPool.rank3",
          "AvgPool.rank3",
          "MaxPool.convention=FULL",
          "AvgPool.convention=FULL",
          "GlobalAvgPool.rank3",
          "GlobalAvgPool.rank4",
          "GlobalAvgPool.rank5",
          "GlobalMaxPool.rank3",
          "GlobalMaxPool.rank4",
          "GlobalMaxPool.rank5",
          "Lrn",
          "Lrn.alpha",
          "Upsample",
          "Upsample.BILINEAR",
          "PRelu.rank2",
          "PRelu.rank3",
          "PRelu.rank4",
          "Flatten",
          "Reshape.MERGE",
          "Reshape.SPLIT",
          "Reshape.COPY",
          "Reshape.COPY_REST",
          "Reshape.BATCH",
          "Reshape.INFER",
          "Reshape.explicit",
          "Dropout",
          "Dropout.rate=0",
          "Dropout.rate>0.5",
          "BatchNorm",
          "BatchNorm.axis",
          "BatchNorm.eps",
          "BatchNorm.momentum",
          "LayerNorm",
          "LayerNorm.axis",
          "LayerNorm.eps",
          "Embedding",
          "Activation",
          "Activation=SOFTSIGN",
          "Softmax",
          "Softmax.axis",
          "L2Loss",
          "L1Loss",
          "LogisticLoss",
          "Add",
          "Add.operands=3",
          "Add.sameTwice",
          "Concat",
          "Concat.axis",
          "Concat.operands=3",
          "Concat.sameTwice",
          "Frozen",
          "From",
          "Output.dangling",
          "Output.consumed",
          "UnusedNode",
          "outputs=3",
          "classifier=true",
          "classifier-shaped",
          "shuffledDeclarations",
          "awkwardName",
          "Custom",
          "Custom.rank3",
          "Custom.dot",
          "Custom.transpose",
          "Custom.add",
          "Custom.sub",
          "Custom.mul",
          "Custom.div",
          "Custom.exp",
          "Custom.activation",
          "Custom.scale",
          "Custom.floatElement",
          "Custom.sum",
          "Custom.residual",
          "Custom.gate",
          "Custom.defaultElement",
          "Custom.element",
          "Custom.literalDim",
          "Custom.zeros",
          "Recurrent",
          "Lstm",
          "Gru",
          "Rnn",
          "Rnn.activation=RELU",
          "Rnn.activation=TANH",
          "Lstm.layers=2",
          "Gru.layers=2",
          "Rnn.layers=2",
          "Lstm.layers=1",
          "Lstm.bidirectional=true",
          "Gru.bidirectional=true",
          "Rnn.bidirectional=true",
          "Gru.bidirectional=false",
          "Lstm.dropout>0,stacked",
          "Gru.dropout>0,stacked",
          "Rnn.dropout>0,stacked",
          "Lstm.dropout>0,one layer",
          "Gru.dropout=0",
          "Lstm.returnSequences=false",
          "Gru.returnSequences=false",
          "Rnn.returnSequences=false",
          "Lstm.returnSequences=true",
          "Lstm.stateful=true",
          "Gru.stateful=true",
          "Rnn.stateful=true",
          "Rnn.stateful=false",
          "Recurrent.steps=1",
          "Recurrent.steps=2-5",
          "Recurrent.steps=6",
          "Recurrent.overSTEPS",
          "Input.steps",
          "Input.sequence",
          "Recurrent.from=input",
          "Recurrent.from=rank3",
          "Recurrent.from=reshape",
          "Recurrent.from=dense",
          "Recurrent.from=embedding",
          "Recurrent.stacked",
          "Recurrent.then=Dense",
          "Recurrent.then=Activation",
          "Recurrent.then=LayerNorm",
          "Attention",
          "Attention.self",
          "Attention.cross",
          "Attention.crossSelf",
          "Attention.lengths",
          "Attention.causal",
          "Attention.keyDim",
          "Attention.valueDim",
          "Attention.noBias",
          "Attention.dropout",
          "Input.lengths",
          "PositionalEmbedding",
          "PositionalEmbedding.longer");

  @Test
  void theSameSeedGivesTheSameModel() {
    for (long seed : new long[] {1, 17, 123456789}) {
      assertEquals(
          ModelGenerator.generate(seed).sources(), ModelGenerator.generate(seed).sources());
    }
  }

  @Test
  void everyLayerAndAttributeFormIsDrawn() {
    Map<String, Integer> models = new TreeMap<>();
    LongStream.range(1, DRAWS + 1)
        .mapToObj(ModelGenerator::generate)
        .forEach(
            c -> c.features().stream().distinct().forEach(f -> models.merge(f, 1, Integer::sum)));
    System.out.println(
        "Share of "
            + DRAWS
            + " random models drawing each feature:\n"
            + models.entrySet().stream()
                .map(
                    e ->
                        String.format(
                            java.util.Locale.ROOT,
                            "  %-28s %5.1f%%",
                            e.getKey(),
                            100.0 * e.getValue() / DRAWS))
                .collect(Collectors.joining("\n")));
    List<String> missing = REQUIRED.stream().filter(f -> !models.containsKey(f)).toList();
    assertTrue(missing.isEmpty(), "never drawn in " + DRAWS + " models: " + missing);
  }
}
