package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.BatchNorm;
import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Sym;

/**
 * Found by the differential suite (seed 29, reduced by hand): a batch norm over an axis other than
 * the channels, fed (directly or through element-wise layers) by a convolution. The first
 * training-mode backward pass fails with MXNet's "Check failed: !is_view" (ndarray.cc:686,
 * NDArray::GetMKLDNNData): oneDNN's convolution leaves its output in a blocked layout, and
 * MXNet 1.9.1's BatchNorm for axis != 1 runs its CPU fallback on a reshaped view of it. Inference
 * works; with MXNET_MKLDNN_ENABLED=0 everything works; it fails the same way before the fused
 * parameter array (commit 4435fb4).
 */
@Model
public interface ConvBatchNormLastAxis {
  @Input(shape = {BATCH, 2, 14, 12})
  Sym image();

  @Conv2D(filters = 8, kernel = 3)
  Sym conv(Sym image);

  @BatchNorm(axis = 3)
  Sym norm(Sym conv);
}
