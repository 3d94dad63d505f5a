package good.ops;

import static dev.kiln.annotations.Dim.BATCH;
import static dev.kiln.annotations.Dim.STEPS;

import dev.kiln.annotations.*;

/** Every element-wise and tensor operation; compiled by TensorOpsCodeTest. */
@Model
public interface TensorOps {
  @Input(shape = {BATCH, 4, 6, 6})
  Sym image();

  @Input(shape = {BATCH, 4, 1, 1})
  Sym gate();

  @Input(shape = {1, 4, 6, 1})
  Sym bias();

  @Multiply
  Sym gated(Sym image, Sym gate);

  @Subtract
  Sym shifted(Sym gated, Sym bias);

  @Divide
  Sym ratio(Sym shifted, @From("gate") Sym divisor);

  @Maximum
  Sym floored(Sym ratio, Sym bias);

  @Clip(min = -1, max = 1)
  Sym bounded(Sym floored);

  @Output
  @Clip(min = 0, max = Double.POSITIVE_INFINITY)
  Sym positive(Sym bounded);

  @Input(shape = {BATCH, 5, 8})
  Sym query();

  @Input(shape = {BATCH, 8})
  Sym rows();

  @Input(shape = {8, 3})
  Sym weights();

  @MatMul(transposeB = true)
  Sym scores(Sym query, @From("query") Sym key);

  @Output
  @MatMul
  Sym mixed(Sym scores, Sym query);

  @Output
  @MatMul
  Sym projected(Sym rows, Sym weights);

  @Output
  @MatMul(transposeA = true, transposeB = true)
  Sym both(Sym weights, Sym rows);

  @Output
  @Transpose(axes = {0, 2, -2})
  Sym timeLast(Sym query);

  @Output
  @Transpose
  Sym reversed(Sym query);

  @Output
  @Transpose(axes = {1, 0})
  Sym batchLast(Sym rows);

  @Output
  @Slice(axis = 2, begin = 1, end = -1)
  Sym inner(Sym query);

  @Output
  @Slice(axis = -1, begin = -2)
  Sym lastTwo(Sym rows);

  @Output
  @Slice(axis = 1, end = 3)
  Sym firstThree(Sym query);

  @Output
  @Mean(axes = {2, 3}, keepDims = true)
  Sym pooled(Sym image);

  @Output
  @Sum
  Sym perExample(Sym query);

  @Output
  @Mean(axes = -1)
  Sym rowMeans(Sym query);

  @Input(shape = {BATCH, STEPS, 4})
  Sym sequence();

  @Output
  @Mean(axes = 1)
  Sym overTime(Sym sequence);

  @Sum(keepDims = true)
  Sym allOfWeights(Sym weights);
}
