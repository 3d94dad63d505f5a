package dev.kiln.processor;

import static dev.kiln.processor.BadCase.error;

import java.util.List;

/**
 * The mistakes the element-wise and tensor operations diagnose ({@code @Multiply},
 * {@code @Subtract}, {@code @Divide}, {@code @Maximum}, ...), one model each under {@code
 * src/test/resources/bad/ops}; part of {@link BadCases#ALL}.
 */
final class TensorOpBadCases {
  private TensorOpBadCases() {}

  static final List<BadCase> ALL =
      List.of(
          // A gate of [BATCH, 16] times [BATCH, 16, 8, 8]: MXNet would meet the 16 with the width.
          error(
              "bad/ops/MultiplyChannelsByImage",
              "@Multiply",
              "[kiln:BroadcastRank] MultiplyChannelsByImage.gated(): @Multiply broadcasts only "
                  + "between inputs of equal rank (MXNet would match a missing axis from the right, "
                  + "so [C] against [N, C, H, W] would meet W, not C), got [BATCH, 16, 8, 8] from "
                  + "features (@Input(shape = {BATCH, 16, 8, 8})) and [BATCH, 16] from gate "
                  + "(@Dense(units = 16, activation = Act.SIGMOID)); reshape gate to [BATCH, 16, 1, "
                  + "1] first, with a node @Reshape(shape = {BATCH, 16, 1, 1}) that reads gate, and "
                  + "use that node instead"),
          // Sizes 6 and 5 along one axis.
          error(
              "bad/ops/SubtractMismatch",
              "@Subtract",
              "[kiln:BroadcastMismatch] SubtractMismatch.diff(): @Subtract needs the sizes along "
                  + "each axis equal, or 1 in one of its inputs (MXNet's broadcasting), but axis 1 "
                  + "is 6 against 5 in [BATCH, 6, 4] from a (@Input(shape = {BATCH, 6, 4})) and "
                  + "[BATCH, 5, 4] from b (@Input(shape = {BATCH, 5, 4})); make axis 1 equal in "
                  + "both, or 1 in one of them"),
          // The batch against a table of four rows.
          error(
              "bad/ops/DivideBatchByConstant",
              "@Divide",
              "[kiln:BroadcastMismatch] DivideBatchByConstant.scaled(): @Divide needs the sizes "
                  + "along each axis equal, or 1 in one of its inputs (MXNet's broadcasting), but "
                  + "axis 0 is BATCH against 4 in [BATCH, 8] from x (@Input(shape = {BATCH, 8})) "
                  + "and [4, 8] from scale (@Input(shape = {4, 8})); BATCH against 4 would "
                  + "broadcast for a batch of 4 only: make that axis 1 or BATCH in both"),
          // A sequence of any length against one of six steps.
          error(
              "bad/ops/MaximumStepsAgainstSize",
              "@Maximum",
              "[kiln:BroadcastMismatch] MaximumStepsAgainstSize.clipped(): @Maximum needs the sizes "
                  + "along each axis equal, or 1 in one of its inputs (MXNet's broadcasting), but "
                  + "axis 1 is STEPS against 6 in [BATCH, STEPS, 4] from x (@Input(shape = {BATCH, "
                  + "STEPS, 4})) and [BATCH, 6, 4] from floor (@Input(shape = {BATCH, 6, 4})); "
                  + "STEPS against 6 would broadcast for 6 steps only: make that axis 1 or STEPS in "
                  + "both"),
          // Six alternating runs of broadcast axes.
          error(
              "bad/ops/MultiplyTooManyRuns",
              "@Multiply",
              "[kiln:BroadcastRuns] MultiplyTooManyRuns.product(): @Multiply of [BATCH, 1, 3, 1, "
                  + "3, 1] from a (@Input(shape = {BATCH, 1, 3, 1, 3, 1})) and [1, 3, 1, 3, 1, 3] "
                  + "from b (@Input(shape = {1, 3, 1, 3, 1, 3})) needs 6 runs of axes that "
                  + "broadcast alike, and MXNet 1.9.1's kernels take at most 5 (they fail with "
                  + "\"Too many broadcast dimensions\" when run); merge neighbouring axes with "
                  + "@Reshape first"),
          // Clip bounds the wrong way round; MXNet would clip every value to max.
          error(
              "bad/ops/ClipMinAboveMax",
              "max = -1",
              "[kiln:OutOfRange] ClipMinAboveMax.bounded() @Clip(min = 1.0, max = -1.0): max must "
                  + "be at least min (1.0), got -1.0"),
          // A bound that is not a number: no comparison with it holds.
          error(
              "bad/ops/ClipNaN",
              "min = Double.NaN",
              "[kiln:OutOfRange] ClipNaN.bounded() @Clip(min = NaN, max = 1.0): min must be a "
                  + "number, got NaN"),
          // Attention scores without transposing the keys.
          error(
              "bad/ops/MatMulKeyNotTransposed",
              "@MatMul",
              "[kiln:MatMulInner] MatMulKeyNotTransposed.scores(): @MatMul needs the columns of the "
                  + "left matrices (axis 2 of [BATCH, 5, 8] from query (@Input(shape = {BATCH, 5, "
                  + "8}))) to agree with the rows of the right ones (axis 1 of [BATCH, 5, 8] from "
                  + "key (@Input(shape = {BATCH, 5, 8}))), got 8 against 5; @MatMul(transposeB = "
                  + "true) would multiply them, giving [BATCH, 5, 5]"),
          // The batch of transposed rows against the rows of a table.
          error(
              "bad/ops/MatMulBatchAgainstRows",
              "@MatMul(transposeA = true)",
              "[kiln:MatMulInner] MatMulBatchAgainstRows.product(): @MatMul(transposeA = true) "
                  + "needs the columns of the left matrices (axis 0 of [BATCH, 6] from x "
                  + "(@Input(shape = {BATCH, 6}))) to agree with the rows of the right ones (axis 0 "
                  + "of [4, 5] from table (@Input(shape = {4, 5}))), got BATCH against 4; BATCH "
                  + "against 4 agrees only for a batch of 4"),
          // Four heads against two.
          error(
              "bad/ops/MatMulHeads",
              "@MatMul(transposeB = true)",
              "[kiln:MatMulBatch] MatMulHeads.scores(): @MatMul multiplies its inputs' matrices "
                  + "pair by pair, so every axis before the last two must be equal (MXNet's "
                  + "batch_dot does not broadcast), but axis 1 is 4 against 2 in [BATCH, 4, 3, 8] "
                  + "from query (@Input(shape = {BATCH, 4, 3, 8})) and [BATCH, 2, 3, 8] from key "
                  + "(@Input(shape = {BATCH, 2, 3, 8}))"),
          // x^T x over the examples of a batch.
          error(
              "bad/ops/MatMulOverBatch",
              "@MatMul(transposeA = true)",
              "[kiln:AcrossBatch] MatMulOverBatch.covariance(): @MatMul(transposeA = true) would sum "
                  + "over axis 0 of [BATCH, 8] from x (@Input(shape = {BATCH, 8})), the batch: each "
                  + "example keeps values of its own (a loss head needs one per example); keep the "
                  + "batch outside the product, e.g. as the first axis of [BATCH, m, k] by [BATCH, "
                  + "k, n] (made with @Reshape or @Transpose)"),
          // A stack of matrices by one matrix.
          error(
              "bad/ops/MatMulRanks",
              "@MatMul",
              "[kiln:RankMismatch] MatMulRanks.projected(): @MatMul needs inputs of equal rank, got "
                  + "[BATCH, 3, 8] from x (@Input(shape = {BATCH, 3, 8})) and [8, 5] from weights "
                  + "(@Input(shape = {8, 5}))"),
          // Rows by a vector.
          error(
              "bad/ops/MatMulVector",
              "@MatMul",
              "[kiln:WrongRank] MatMulVector.scores(): @MatMul needs a rank-2 or higher [.., rows, "
                  + "columns] input, got [8] from weights (@Input(shape = {8})); to multiply by a "
                  + "vector, make it a matrix of one column first: @Reshape(shape = {8, 1})"),
          // Two axes for a rank-3 input.
          error(
              "bad/ops/TransposeTooFewAxes",
              "axes = {0, 2}",
              "[kiln:BadPermutation] TransposeTooFewAxes.swapped() @Transpose(axes = {0, 2}): axes must "
                  + "list each of the 3 axes of [BATCH, 5, 8] from sequence (@Input(shape = "
                  + "{BATCH, 5, 8})) once (0 to 2, or negative from the end), or none to reverse "
                  + "them, but it lists 2 axes"),
          // An axis twice.
          error(
              "bad/ops/TransposeRepeatedAxis",
              "axes = {0, 2, 2}",
              "[kiln:BadPermutation] TransposeRepeatedAxis.swapped() @Transpose(axes = {0, 2, 2}): axes must "
                  + "list each of the 3 axes of [BATCH, 5, 8] from sequence (@Input(shape = "
                  + "{BATCH, 5, 8})) once (0 to 2, or negative from the end), or none to reverse "
                  + "them, but it lists axis 2 twice"),
          // An axis the input does not have.
          error(
              "bad/ops/TransposeAxisOutOfRange",
              "axes = {0, 3, 1}",
              "[kiln:BadPermutation] TransposeAxisOutOfRange.swapped() @Transpose(axes = {0, 3, 1}): axes must "
                  + "list each of the 3 axes of [BATCH, 5, 8] from sequence (@Input(shape = "
                  + "{BATCH, 5, 8})) once (0 to 2, or negative from the end), or none to reverse "
                  + "them, but axis 3 is out of range"),
          // Seven axes.
          error(
              "bad/ops/TransposeRankSeven",
              "@Transpose",
              "[kiln:WrongRank] TransposeRankSeven.reversed(): @Transpose needs a rank-1 to 6 [d0, "
                  + "...] input, got [BATCH, 2, 2, 2, 2, 2, 2] from x (@Input(shape = {BATCH, 2, 2, "
                  + "2, 2, 2, 2})); MXNet 1.9.1 transposes at most 6 axes"),
          // The first four examples of a batch.
          error(
              "bad/ops/SliceBatch",
              "axis = 0",
              "[kiln:AcrossBatch] SliceBatch.part(): @Slice(axis = 0, end = 4) would slice axis 0 of "
                  + "[BATCH, 8] from x (@Input(shape = {BATCH, 8})), the batch: each example keeps "
                  + "values of its own (a loss head needs one per example); slice another axis (a "
                  + "slice of the batch keeps some examples and drops the others, and only for "
                  + "some batch sizes)"),
          // The last step of a sequence of any length.
          error(
              "bad/ops/SliceSteps",
              "axis = 1",
              "[kiln:SliceUnknownSize] SliceSteps.part() @Slice(axis = 1, begin = -1): @Slice needs "
                  + "the size of axis 1 known at compile time to check begin and end, but it is "
                  + "STEPS in [BATCH, STEPS, 4] from x (@Input(shape = {BATCH, STEPS, 4})) (fixed "
                  + "only when an executor is bound); slice an axis of constant size"),
          // Nine from the end of eight.
          error(
              "bad/ops/SliceBeginBeforeStart",
              "begin = -9",
              "[kiln:BadSlice] SliceBeginBeforeStart.part() @Slice(axis = 1, begin = -9): cannot "
                  + "take indices [-9, end) of axis 1 of [BATCH, 8] from x (@Input(shape = {BATCH, "
                  + "8})), of size 8: begin -9 counts back past the start"),
          // An end past the axis.
          error(
              "bad/ops/SliceEndPastSize",
              "end = 9",
              "[kiln:BadSlice] SliceEndPastSize.part() @Slice(axis = 1, begin = 2, end = 9): cannot "
                  + "take indices [2, 9) of axis 1 of [BATCH, 8] from x (@Input(shape = {BATCH, "
                  + "8})), of size 8: end 9 is past the end"),
          // Indices 5 to 5.
          error(
              "bad/ops/SliceEmpty",
              "end = -3",
              "[kiln:BadSlice] SliceEmpty.part() @Slice(axis = -1, begin = 5, end = -3): cannot take "
                  + "indices [5, -3) of axis 1 of [BATCH, 8] from x (@Input(shape = {BATCH, 8})), of "
                  + "size 8: the range is empty (5 to 5 counted from the start)"),
          // An axis the input does not have.
          error(
              "bad/ops/SliceAxisOutOfRange",
              "axis = 2",
              "[kiln:BadAxis] SliceAxisOutOfRange.part(): axis 2 is out of range for [BATCH, 8] from "
                  + "x (@Input(shape = {BATCH, 8})) of rank 2 (allowed: -2 to 1)"),
          // A mean over the whole batch.
          error(
              "bad/ops/MeanOverBatch",
              "axes = {0, 1}",
              "[kiln:AcrossBatch] MeanOverBatch.reduced(): @Mean(axes = {0, 1}) would average over "
                  + "axis 0 of [BATCH, 8] from x (@Input(shape = {BATCH, 8})), the batch: each "
                  + "example keeps values of its own (a loss head needs one per example); reduce "
                  + "the other axes, axes = {1}, or leave axes empty for every axis but the batch"),
          // Nothing but the batch to reduce.
          error(
              "bad/ops/SumOnlyBatch",
              "@Sum",
              "[kiln:AcrossBatch] SumOnlyBatch.reduced(): @Sum would sum over axis 0 of [BATCH] "
                  + "from x (@Input(shape = {BATCH})), the batch: each example keeps values of its "
                  + "own (a loss head needs one per example); [BATCH] has no axis but the batch to "
                  + "reduce"),
          // One axis written twice.
          error(
              "bad/ops/SumRepeatedAxis",
              "axes = {1, -2}",
              "[kiln:RepeatedAxis] SumRepeatedAxis.reduced() @Sum(axes = {1, -2}): axes lists axis "
                  + "1 of [BATCH, 4, 6] from x (@Input(shape = {BATCH, 4, 6})) twice (as 1 and -2); "
                  + "name it once"),
          // An axis the input does not have.
          error(
              "bad/ops/MeanAxisOutOfRange",
              "axes = 3",
              "[kiln:BadAxis] MeanAxisOutOfRange.reduced(): axis 3 is out of range for [BATCH, 4, "
                  + "6] from x (@Input(shape = {BATCH, 4, 6})) of rank 3 (allowed: -3 to 2)"));
}
