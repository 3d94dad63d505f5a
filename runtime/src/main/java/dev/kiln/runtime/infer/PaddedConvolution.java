package dev.kiln.runtime.infer;

/**
 * A convolution that a fused predictor runs with zero filters added up to a whole number of
 * oneDNN's blocks of 16, so that it and the layer reading it run on blocked kernels; its outputs
 * are those of the convolution as declared (see {@code docs/inference.md}).
 *
 * @param name the convolution's node name
 * @param filters its filters as declared
 * @param paddedTo the filters the predictor runs
 */
public record PaddedConvolution(String name, int filters, int paddedTo) {
  @Override
  public String toString() {
    return name + ": " + filters + " filters run as " + paddedTo;
  }
}
