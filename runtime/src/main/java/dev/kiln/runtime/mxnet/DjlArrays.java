package dev.kiln.runtime.mxnet;

import ai.djl.mxnet.engine.MxNDArray;
import ai.djl.ndarray.NDArray;

/**
 * Where DJL's arrays meet Kiln's at the public API edge: an array of DJL's MXNet engine lives in
 * the same libmxnet, so it is copied by its handle, MXNet to MXNet, without passing through Java.
 */
public final class DjlArrays {
  private DjlArrays() {}

  /**
   * Copies {@code source} into {@code target} ({@code MXNDArraySyncCopyFromNDArray}) when it is an
   * array of DJL's MXNet engine, and returns true; returns false, copying nothing, for any other
   * kind of {@link NDArray}, which the caller copies through host memory.
   */
  public static boolean copyInto(NDArrayHandle target, NDArray source) {
    if (source instanceof MxNDArray mx) {
      target.copyFromPointer(mx.getHandle());
      return true;
    }
    return false;
  }
}
