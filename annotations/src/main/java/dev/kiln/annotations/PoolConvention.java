package dev.kiln.annotations;

/**
 * How a window pooling layer ({@link MaxPool}, {@link AvgPool}) counts the windows that fit along
 * each spatial dimension: MXNet's {@code pooling_convention}. With size {@code x}, kernel {@code
 * k}, stride {@code s} and padding {@code p} on each side:
 */
public enum PoolConvention {
  /**
   * Only windows that lie wholly inside the padded input: {@code floor((x + 2p - k) / s) + 1}
   * (MXNet's {@code valid}, the default, as in Gluon, Keras and PyTorch).
   */
  VALID,
  /**
   * One more window where the last one would otherwise leave values out: {@code ceil((x + 2p - k) /
   * s) + 1} (MXNet's {@code full}, Caffe's rule, used by Inception-style networks imported from
   * MXNet); the last window may then reach past the padded input.
   */
  FULL
}
