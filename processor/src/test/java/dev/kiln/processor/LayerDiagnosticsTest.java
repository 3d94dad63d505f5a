package dev.kiln.processor;

import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.util.stream.Stream;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every compile-time error of the layer library: each bad model under {@code bad/layers/} gives
 * exactly one error, with its {@code [kiln:Id]} and wording, on the line of the annotation (or
 * value) at fault; and a model using every layer compiles without a warning.
 */
class LayerDiagnosticsTest {
  private static Compilation compile(JavaFileObject source) {
    return javac().withProcessors(new KilnProcessor())
        .withOptions("-Xlint:all", "-Xlint:-processing") // as the build compiles
        .compile(source);
  }

  static Stream<Arguments> badModels() {
    return Stream.of(
        Arguments.of("ConvOnRows", "@Conv2D(filters = 6, kernel = 5)",
            "[kiln:WrongRank] ConvOnRows.conv(): @Conv2D needs "
                + "a rank-4 [N, C, H, W] input, got [BATCH, 784] from pixels (@Input(shape = "
                + "{BATCH, 784})); to read each row as a 28x28 image, reshape it first: "
                + "@Reshape(shape = {BATCH, 1, 28, 28})"),
        Arguments.of("PoolOnRank3", "@AvgPool(kernel = 2)",
            "[kiln:WrongRank] PoolOnRank3.pool(): @AvgPool needs a rank-4 "
                + "[N, C, H, W] input, got [BATCH, 3, 8] from x (@Input(shape = {BATCH, 3, 8}))"),
        Arguments.of("GlobalPoolOnRank2", "@GlobalAvgPool",
            "[kiln:WrongRank] GlobalPoolOnRank2.gap(): @GlobalAvgPool needs a "
                + "rank-3 to 5 [N, C, ...] input, got [BATCH, 8] from x"),
        Arguments.of("ConvUnknownChannels", "@Conv2D(filters = 4, kernel = 3)",
            "[kiln:UnknownChannels] ConvUnknownChannels.conv(): "
                + "@Conv2D needs the size of axis 1 (its input channels) known at compile time "
                + "to shape its parameters, got [BATCH, BATCH, 8, 8] from x"),
        Arguments.of("BatchNormUnknownChannels", "@BatchNorm(axis = -1)",
            "[kiln:UnknownChannels] BatchNormUnknownChannels.bn(): "
                + "@BatchNorm needs the size of axis 2 (the normalised axis) known at compile "
                + "time"),
        Arguments.of("ConvZeroFilters", "@Conv2D(filters = 0, kernel = 3)",
            "[kiln:NonPositive] ConvZeroFilters.conv() @Conv2D(filters = 0, kernel = 3): "
                + "filters must be positive, got 0"),
        Arguments.of("ConvZeroKernel", "@Conv2D(filters = 2, kernel = {3, 0})",
            "[kiln:NonPositive] ConvZeroKernel.conv() @Conv2D(filters = 2, kernel = {3, 0}): "
                + "kernel must be positive, got 0"),
        Arguments.of("PoolZeroStride", "@MaxPool(kernel = 2, stride = 0)",
            "[kiln:NonPositive] PoolZeroStride.pool() @MaxPool(kernel = 2, stride = 0): stride "
                + "must be positive, got 0"),
        Arguments.of("ConvZeroDilation", "@Conv2D(filters = 2, kernel = 3, dilation = 0)",
            "dilation must be positive, got 0"),
        Arguments.of("ConvNegativePad", "@Conv2D(filters = 2, kernel = 3, pad = {1, -1})",
            "[kiln:Negative] ConvNegativePad.conv() @Conv2D(filters = 2, kernel = 3, pad = "
                + "{1, -1}): pad must be 0 or more, got -1"),
        Arguments.of("ConvThreeKernelValues", "@Conv2D(filters = 2, kernel = {3, 3, 3})",
            "[kiln:BadWindow] ConvThreeKernelValues.conv() @Conv2D(filters = 2, kernel = {3, 3, "
                + "3}): kernel takes one value (used for height and width) or two ({height, "
                + "width}), got 3"),
        Arguments.of("PoolPadTooLarge", "@MaxPool(kernel = 2, pad = {0, 2})",
            "[kiln:PadTooLarge] PoolPadTooLarge.pool() @MaxPool(kernel = 2, pad = {0, 2}): pad 2 "
                + "must be smaller than the kernel 2 along the width, or a window at the border "
                + "covers only padding"),
        Arguments.of("ConvKernelTooLarge", "@Conv2D(filters = 2, kernel = 5)",
            "[kiln:KernelTooLarge] ConvKernelTooLarge.conv(): "
                + "the window spans 5 along the height (kernel 5), more than the 4 (4 with "
                + "padding) of [BATCH, 1, 4, 4] from x (@Input(shape = {BATCH, 1, 4, 4})); use a "
                + "smaller kernel or dilation, or more padding"),
        Arguments.of("ConvDilatedTooLarge", "dilation = {1, 2}",
            "the window spans 5 along the width (kernel 3 dilated by 2), more than the 4 (4 with "
                + "padding) of [BATCH, 1, 8, 4]"),
        Arguments.of("PoolKernelTooLarge", "@MaxPool(kernel = 5)",
            "[kiln:KernelTooLarge] PoolKernelTooLarge.pool3(): the window "
                + "spans 5 along the height (kernel 5), more than the 4 (4 with padding) of [BATCH, "
                + "8, 4, 4] from pool2 (@MaxPool(kernel = 2))"),
        Arguments.of("DropoutRateOne", "@Dropout(rate = 1.0)",
            "[kiln:RateOutOfRange] DropoutRateOne.dropped() @Dropout(rate = 1.0): rate must be in "
                + "[0, 1) (the probability of dropping a value in training), got 1.0"),
        Arguments.of("DropoutNegativeRate", "@Dropout(rate = -0.1)",
            "[kiln:RateOutOfRange] DropoutNegativeRate.dropped() @Dropout(rate = -0.1): rate must "
                + "be in [0, 1)"),
        Arguments.of("BatchNormZeroEps", "@BatchNorm(eps = 0)",
            "[kiln:OutOfRange] BatchNormZeroEps.bn() @BatchNorm(eps = 0.0): eps must be positive, "
                + "got 0.0"),
        Arguments.of("BatchNormMomentum", "@BatchNorm(momentum = 1.5)",
            "[kiln:OutOfRange] BatchNormMomentum.bn() @BatchNorm(momentum = 1.5): momentum must "
                + "be in [0, 1], got 1.5"),
        Arguments.of("LayerNormNegativeEps", "@LayerNorm(eps = -1e-5)",
            "[kiln:OutOfRange] LayerNormNegativeEps.norm() @LayerNorm(eps = -1.0E-5): eps must be "
                + "positive, got -1.0E-5"),
        Arguments.of("BatchNormBadAxis", "@BatchNorm(axis = 4)",
            "[kiln:BadAxis] BatchNormBadAxis.bn(): axis 4 is out of range "
                + "for [BATCH, 3, 8, 8] from x (@Input(shape = {BATCH, 3, 8, 8})) of rank 4 "
                + "(allowed: -4 to 3)"),
        Arguments.of("LayerNormBadAxis", "@LayerNorm(axis = -3)",
            "[kiln:BadAxis] LayerNormBadAxis.norm(): axis -3 is out of "
                + "range"),
        Arguments.of("EmbeddingZeroInputDim", "@Embedding(inputDim = 0, outputDim = 8)",
            "[kiln:NonPositive] EmbeddingZeroInputDim.vectors() @Embedding(inputDim = 0, "
                + "outputDim = 8): inputDim must be positive, got 0"),
        Arguments.of("EmbeddingZeroOutputDim", "@Embedding(inputDim = 100, outputDim = -2)",
            "outputDim must be positive, got -2"),
        Arguments.of("ReshapeTwoInferred", "@Reshape(shape = {BATCH, 1, BATCH, 28})",
            "[kiln:BadReshape] ReshapeTwoInferred.image() @Reshape(shape = {BATCH, 1, BATCH, "
                + "28}): cannot reshape to {BATCH, 1, BATCH, 28}: only one dimension can be "
                + "inferred (BATCH or -1), got 2"),
        Arguments.of("ReshapeUnknownCode", "@Reshape(shape = {0, -5})",
            "cannot reshape to {0, -5}: -5 at position 1 is neither a size nor one of MXNet's "
                + "special values 0 (copy), -1 (infer), -2 (copy the rest), -3 (merge two), -4 "
                + "(split one)"),
        Arguments.of("ReshapeSplitWithoutSizes", "@Reshape(shape = {0, Reshape.SPLIT, 28})",
            "cannot reshape to {0, -4, 28}: SPLIT (-4) at position 1 needs the two sizes it "
                + "splits into after it"),
        Arguments.of("ReshapeEmpty", "@Reshape(shape = {})",
            "cannot reshape to {}: the shape is empty; give at least one dimension"),
        Arguments.of("ReshapeWrongSize", "@Reshape(shape = {BATCH, 1, 28, 27})",
            "[kiln:BadReshape] ReshapeWrongSize.image(): "
                + "cannot reshape to {BATCH, 1, 28, 27}: the input has 784 × BATCH values, which "
                + "the other dimensions (756 values) do not divide for every batch size (input "
                + "[BATCH, 784] from pixels (@Input(shape = {BATCH, 784})))"),
        Arguments.of("ReshapeNotEveryBatch", "@Reshape(shape = {8, BATCH})",
            "the input has 4 × BATCH values, which the other dimensions (8 values) do not divide "
                + "for every batch size"),
        Arguments.of("ReshapeDropsBatch", "@Reshape(shape = {4, 4})",
            "cannot reshape to {4, 4}: the input has 4 × BATCH values but the target has 16; a "
                + "reshape must keep the number of values for every batch size"),
        Arguments.of("ReshapeCopyPastRank", "@Reshape(shape = {0, 0, 0})",
            "cannot reshape to {0, 0, 0}: COPY (0) at position 2 has no input dimension 2 to "
                + "copy"),
        Arguments.of("ReshapeMergePastRank", "@Reshape(shape = {0, Reshape.MERGE})",
            "cannot reshape to {0, -3}: MERGE (-3) at position 1 needs input dimensions 1 and 2"),
        Arguments.of("ReshapeBadSplit", "@Reshape(shape = {0, Reshape.SPLIT, 5, BATCH})",
            "cannot reshape to {0, -4, 5, BATCH}: SPLIT (-4) cannot split dimension 1 of size 12 "
                + "into parts of 5"),
        Arguments.of("FrozenFlatten", "@Frozen",
            "[kiln:FrozenWithoutParams] FrozenFlatten.flat() is @Frozen, but @Flatten has no "
                + "parameters to freeze; remove @Frozen"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badModels")
  void badModelGivesOneErrorAtTheSpot(String model, String line, String message) {
    JavaFileObject source = JavaFileObjects.forResource("bad/layers/" + model + ".java");
    Compilation c = compile(source);
    assertThat(c).hadErrorCount(1);
    assertThat(c).hadErrorContaining(message).inFile(source).onLineContaining(line);
  }

  @Test
  void everyLayerCompilesWithoutWarningsAndShapesAreInferred() throws IOException {
    Compilation c = compile(JavaFileObjects.forResource("good/layers/LayerZoo.java"));
    assertThat(c).succeededWithoutWarnings();
    String graph = c.generatedFile(StandardLocation.SOURCE_OUTPUT, "good/layers/LayerZooGraph.java")
        .orElseThrow().getCharContent(false).toString();
    String[] expected = {
      "IMAGE_SHAPE = Shape.of(BATCH, 1, 28, 28);",
      "CONV1_SHAPE = Shape.of(BATCH, 6, 28, 28);",
      "CONV1_WEIGHT_SHAPE = Shape.of(6, 1, 5, 5);",
      "BN1_MOVING_VAR_SHAPE = Shape.of(6);",
      "POOL1_SHAPE = Shape.of(BATCH, 6, 14, 14);",
      // height (14 - 5) / 1 + 1 = 10, width (14 - (2·2 + 1)) / 2 + 1 = 5
      "CONV2_SHAPE = Shape.of(BATCH, 16, 10, 5);",
      "CONV2_WEIGHT_SHAPE = Shape.of(16, 6, 5, 3);",
      // (10 + 2 - 2) / 1 + 1 = 11, (5 + 2 - 2) / 1 + 1 = 6
      "POOL2_SHAPE = Shape.of(BATCH, 16, 11, 6);",
      "GAP_SHAPE = Shape.of(BATCH, 16, 1, 1);",
      "FEATURES_SHAPE = Shape.of(BATCH, 16, 1);",
      "VECTORS_SHAPE = Shape.of(BATCH, 6, 8);",
      "VECTORS_WEIGHT_SHAPE = Shape.of(50, 8);",
      "PAIRS_SHAPE = Shape.of(BATCH, 2, 3, 8);",
      "NORM_GAMMA_SHAPE = Shape.of(48);",
      "return this.builder.conv2d(CONV1_SOURCE, image, Conv2DSpec.filters(6)\n"
          + "        .kernel(5, 5).pad(2, 2).activation(Act.RELU));",
      "return this.builder.maxPool(POOL1_SOURCE, bn1, PoolSpec.kernel(2, 2));",
      "return this.builder.avgPool(POOL2_SOURCE, conv2, PoolSpec.kernel(2, 2).stride(1, 1)"
          + ".pad(1, 1));",
      "return this.builder.reshape(IMAGE_SOURCE, pixels, BATCH, 1, 28, 28);",
      "BatchNormSpec.channelAxis(1).eps(0.001).momentum(0.9));",
      "this.builder.freeze(VECTORS_SOURCE);\n    return this.builder.embedding(VECTORS_SOURCE, "
          + "tokens, EmbeddingSpec.rows(50).columns(8));",
      "return this.builder.dropout(DROPPED_SOURCE, norm, 0.25);",
    };
    for (String e : expected) {
      org.junit.jupiter.api.Assertions.assertTrue(graph.contains(e), e + " in\n" + graph);
    }
    String model = c.generatedFile(StandardLocation.SOURCE_OUTPUT,
        "good/layers/LayerZooModel.java").orElseThrow().getCharContent(false).toString();
    org.junit.jupiter.api.Assertions.assertTrue(model.contains("public Parameter bn1MovingMean()")
        && model.contains("return runtime.auxState(\"bn1_moving_mean\");"), model);
  }
}
