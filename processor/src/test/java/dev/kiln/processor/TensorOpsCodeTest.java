package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The element-wise and tensor operations in generated code, under javac and ecj: each node with its
 * inferred shape and the runtime spec that emits it, its inputs in the order declared.
 */
class TensorOpsCodeTest {
  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void everyOperationIsEmittedWithItsInferredShape(TestCompiler compiler) {
    Result r = compiler.compile("good/ops/TensorOps");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("good.ops.TensorOpsGraph");
    String[] expected = {
      "GATED_SHAPE = Shape.of(BATCH, 4, 6, 6);",
      "SHIFTED_SHAPE = Shape.of(BATCH, 4, 6, 6);",
      "FLOORED_SHAPE = Shape.of(BATCH, 4, 6, 6);",
      "return this.builder.node(GATED_SOURCE, BroadcastOp.multiply(), image, gate);",
      "return this.builder.node(SHIFTED_SOURCE, BroadcastOp.subtract(), gated, bias);",
      "return this.builder.node(RATIO_SOURCE, BroadcastOp.divide(), shifted, divisor);",
      "return this.builder.node(FLOORED_SOURCE, BroadcastOp.maximum(), ratio, bias);",
      "SCORES_SHAPE = Shape.of(BATCH, 5, 5);",
      "MIXED_SHAPE = Shape.of(BATCH, 5, 8);",
      "PROJECTED_SHAPE = Shape.of(BATCH, 3);",
      "BOTH_SHAPE = Shape.of(3, BATCH);",
      "return this.builder.node(SCORES_SOURCE, MatMulOp.batched().transposeB(), query, key);",
      "return this.builder.node(MIXED_SOURCE, MatMulOp.batched(), scores, query);",
      "return this.builder.node(PROJECTED_SOURCE, MatMulOp.matrices(), rows, weights);",
      "return this.builder.node(BOTH_SOURCE, MatMulOp.matrices().transposeA().transposeB(), "
          + "weights,\n        rows);",
      "TIME_LAST_SHAPE = Shape.of(BATCH, 8, 5);",
      "REVERSED_SHAPE = Shape.of(8, 5, BATCH);",
      "BATCH_LAST_SHAPE = Shape.of(8, BATCH);",
      "return this.builder.node(TIME_LAST_SOURCE, TransposeOp.axes(0, 2, 1), query);",
      "return this.builder.node(REVERSED_SOURCE, TransposeOp.reverse(), query);",
      "return this.builder.node(BATCH_LAST_SOURCE, TransposeOp.axes(1, 0), rows);",
      "INNER_SHAPE = Shape.of(BATCH, 5, 6);",
      "LAST_TWO_SHAPE = Shape.of(BATCH, 2);",
      "FIRST_THREE_SHAPE = Shape.of(BATCH, 3, 8);",
      "return this.builder.node(INNER_SOURCE, SliceOp.axis(2).begin(1).end(-1), query);",
      "return this.builder.node(LAST_TWO_SOURCE, SliceOp.axis(-1).begin(-2), rows);",
      "return this.builder.node(FIRST_THREE_SOURCE, SliceOp.axis(1).end(3), query);",
      "POOLED_SHAPE = Shape.of(BATCH, 4, 1, 1);",
      "PER_EXAMPLE_SHAPE = Shape.of(BATCH);",
      "ROW_MEANS_SHAPE = Shape.of(BATCH, 5);",
      "OVER_TIME_SHAPE = Shape.of(BATCH, 4);",
      "ALL_OF_WEIGHTS_SHAPE = Shape.of(1, 1);",
      "return this.builder.node(POOLED_SOURCE, ReduceOp.mean(2, 3).keepDims(), image);",
      "return this.builder.node(PER_EXAMPLE_SOURCE, ReduceOp.sum(1, 2), query);",
      "return this.builder.node(ROW_MEANS_SOURCE, ReduceOp.mean(2), query);",
      "return this.builder.node(OVER_TIME_SOURCE, ReduceOp.mean(1), sequence);",
      "return this.builder.node(ALL_OF_WEIGHTS_SOURCE, ReduceOp.sum(0, 1).keepDims(), weights);",
      "return this.builder.node(BOUNDED_SOURCE, ClipOp.between(-1.0, 1.0), floored);",
      "return this.builder.node(POSITIVE_SOURCE, ClipOp.between(0.0, Double.POSITIVE_INFINITY),"
          + "\n        bounded);",
    };
    for (String e : expected) {
      assertTrue(graph.contains(e), e + " in\n" + graph);
    }
  }
}
