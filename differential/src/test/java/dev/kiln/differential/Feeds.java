package dev.kiln.differential;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;

/**
 * Runs a model's forward and backward passes on plain float arrays: each call makes its DJL arrays
 * in a sub-manager and frees them before it returns, so long runs hold no native memory.
 */
final class Feeds {
  private Feeds() {}

  /** Values and shapes of several arrays, e.g. a batch of inputs or a forward pass's outputs. */
  record Arrays(float[][] values, int[][] shapes) {
    /** How many arrays. */
    int count() {
      return values.length;
    }
  }

  /** The forward pass in the model's current mode. */
  static Arrays forward(DiffModel model, NDManager nd, Arrays inputs) {
    try (NDManager sub = nd.newSubManager()) {
      return read(model.forward(make(sub, inputs)));
    }
  }

  /** The forward pass in the model's current mode, a stateful model carrying its state on. */
  static Arrays forwardCarrying(DiffModel model, NDManager nd, Arrays inputs) {
    try (NDManager sub = nd.newSubManager()) {
      return read(model.forwardCarrying(make(sub, inputs)));
    }
  }

  /** The backward pass of the last forward pass; returns the input gradients. */
  static Arrays backward(DiffModel model, NDManager nd, Arrays heads) {
    try (NDManager sub = nd.newSubManager()) {
      return read(model.backward(make(sub, heads)));
    }
  }

  /** DJL arrays of {@code a} made by {@code nd}. */
  static NDArray[] make(NDManager nd, Arrays a) {
    NDArray[] out = new NDArray[a.count()];
    for (int i = 0; i < out.length; i++) {
      long[] dims = new long[a.shapes()[i].length];
      for (int d = 0; d < dims.length; d++) {
        dims[d] = a.shapes()[i][d];
      }
      out[i] = nd.create(a.values()[i], new Shape(dims));
    }
    return out;
  }

  /** The values and shapes of DJL arrays. */
  static Arrays read(NDArray[] arrays) {
    float[][] v = new float[arrays.length][];
    int[][] s = new int[arrays.length][];
    for (int i = 0; i < arrays.length; i++) {
      v[i] = arrays[i].toFloatArray();
      long[] dims = arrays[i].getShape().getShape();
      s[i] = new int[dims.length];
      for (int d = 0; d < dims.length; d++) {
        s[i][d] = (int) dims[d];
      }
    }
    return new Arrays(v, s);
  }
}
