package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/**
 * Found by the differential suite (seed 23, in a CI run of the whole slice on 2026-12-01): after a
 * pass at batch 1, the inference outputs of the batch-2 executor, which had been right, came back
 * as zeros (16 of 16 values). Seven reruns of the slice and of the seed alone did not repeat it.
 * Its concatenation holds the input twice beside a convolution of it, the pattern of
 * ConcatConvBackwardSigfpe; the generator no longer draws one array twice in a rank-4
 * concatenation.
 *
 * <p>differential: seed=23 init=xavierNormal
 */
@Model
public interface ConcatInputTwiceZeros {

  @Conv2D(filters = 5, kernel = 1, activation = Act.SOFTRELU)
  Sym conv4(Sym in3);

  @Activation(Act.RELU)
  Sym act6(Sym concat5);

  @Embedding(inputDim = 24, outputDim = 2)
  Sym embed2(Sym in1);

  @Concat(axis = 2)
  Sym concat5(Sym in3, Sym conv4, @From("in3") Sym arg0);

  @Input(shape = {BATCH, 5, 7, 7})
  Sym in3();

  @Input(shape = {BATCH, 3})
  Sym in1();

  @Concat
  Sym concat9(@From("dense7") Sym arg0, Sym flat8);

  @Dense(units = 8)
  Sym dense7(Sym embed2);

  @Dense(units = 8)
  Sym logits10(Sym concat9);

  @Flatten
  Sym flat8(Sym act6);

  @Softmax
  Sym probs11(Sym logits10);
}
