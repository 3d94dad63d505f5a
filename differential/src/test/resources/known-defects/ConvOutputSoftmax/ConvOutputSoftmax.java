package regression;

import static dev.kiln.annotations.Dim.BATCH;

import dev.kiln.annotations.Conv2D;
import dev.kiln.annotations.Input;
import dev.kiln.annotations.Model;
import dev.kiln.annotations.Output;
import dev.kiln.annotations.Softmax;
import dev.kiln.annotations.Sym;

/**
 * Found by the differential suite (seed 517, reduced by hand): a convolution with a multiple of 8
 * filters that is also an output, read by a softmax over the last axis. The first forward pass,
 * in either mode, kills the JVM with SIGSEGV in mxnet::op::MKLDNNSoftmaxForward: oneDNN's softmax
 * asks its output array for memory in the input's blocked layout, gets none, and MXNet 1.9.1
 * dereferences the null pointer (mkldnn_softmax.cc). The same with a ReLU or batch norm between
 * them marked {@code @Output} instead; not with 7 filters, without the {@code @Output}, or with a
 * softmax over another axis (which oneDNN does not run). The generator draws softmaxes of
 * convolution outputs over axes 1 and 2 only.
 */
@Model
public interface ConvOutputSoftmax {
  @Input(shape = {BATCH, 3, 6, 5})
  Sym image();

  @Output
  @Conv2D(filters = 8, kernel = 3)
  Sym features(Sym image);

  @Softmax
  Sym attention(Sym features);
}
