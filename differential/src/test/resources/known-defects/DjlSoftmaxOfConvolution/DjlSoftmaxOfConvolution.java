package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * Found by the differential suite (seed 328, reduced by hand): a softmax over the last axis of a
 * convolution's output, the convolution with a multiple of 8 filters (oneDNN's blocked layout).
 * Kiln runs it fine; DJL loading the checkpoint (MXNet's CachedOp) dies with SIGSEGV in
 * mxnet::op::MKLDNNSoftmaxForward on the first predict. The same through a ReLU, a max pool, a
 * batch norm, dropout or an add; not with 7 filters, a softmax over axis 1 or 2, or a reshape
 * first. A defect of MXNet 1.9.1 under DJL, not of Kiln; the suite skips its DJL check for
 * such models.
 */
@Model
public interface DjlSoftmaxOfConvolution {
  @Input(shape = {BATCH, 3, 11, 8})
  Sym image();

  @Conv2D(filters = 8, kernel = 3)
  Sym conv(Sym image);

  @Softmax
  Sym probs(Sym conv);
}
