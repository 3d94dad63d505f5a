package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.*;

/**
 * Drawn by the differential suite's generator from seed 49 when it first drew 1-D convolutions,
 * reduced to what failed. differential: seed=49 init=xavier
 *
 * <p>Its checks 6, 4 and 5 threw MXNet's "Check failed: !is_view" in the first backward pass: a
 * batch norm over a 1-D convolution's output, which MXNet 1.9.1's oneDNN convolution leaves in a
 * blocked layout (any axis fails; oneDNN's batch norm takes only 4-D inputs). Fixed: a 1-D
 * convolution ends with an identity Reshape, whose oneDNN kernel writes the default layout.
 */
@Model(classifier = true)
public interface Conv1dBatchNorm {

  @Input(shape = {BATCH, 4, 5})
  Sym in1();

  @Conv1D(filters = 16, kernel = 2, groups = 2, noBias = true)
  Sym conv1d2(@From("in1") Sym arg0);

  @BatchNorm(axis = -2, eps = 1e-4, momentum = 0.9)
  Sym bn3(Sym conv1d2);

  @Dense(units = 10, activation = Act.SOFTSIGN)
  Sym grads(@From("bn3") Sym arg0);

  @Dense(units = 5)
  Sym logits7(Sym grads);

  @Softmax(axis = -1)
  Sym probs8(Sym logits7);
}
