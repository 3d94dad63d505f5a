package dev.kiln.runtime.exec;

import dev.kiln.runtime.graph.Shape;

/**
 * A layout transform between a parameter as MXNet stores it and as the user wants to read and write
 * it: {@link #load} turns stored values into the view, {@link #store} turns view values back. For
 * example {@link #transpose()} shows a dense weight, stored {@code [out, in]}, as the {@code [in,
 * out]} matrix of {@code x·W}.
 */
public interface ParamView {
  /** The view's shape for a parameter stored with {@code stored}. */
  Shape shape(Shape stored);

  /** Stored values (row-major, {@code stored}) to view values (row-major, {@link #shape}). */
  float[] load(float[] values, Shape stored);

  /** View values back to stored values; the inverse of {@link #load}. */
  float[] store(float[] values, Shape stored);

  /** The transpose of a matrix: {@code [rows, cols]} seen as {@code [cols, rows]}. */
  static ParamView transpose() {
    return new ParamView() {
      @Override
      public Shape shape(Shape stored) {
        requireMatrix(stored);
        return Shape.of(stored.dim(1), stored.dim(0));
      }

      @Override
      public float[] load(float[] values, Shape stored) {
        requireMatrix(stored);
        return transposed(values, stored.dim(0), stored.dim(1));
      }

      @Override
      public float[] store(float[] values, Shape stored) {
        requireMatrix(stored);
        return transposed(values, stored.dim(1), stored.dim(0));
      }
    };
  }

  /**
   * An element-wise view: {@code load} and {@code store} applied to every value, e.g. a scale and
   * its inverse. The shape is unchanged.
   */
  static ParamView elementwise(
      java.util.function.DoubleUnaryOperator load, java.util.function.DoubleUnaryOperator store) {
    return new ParamView() {
      @Override
      public Shape shape(Shape stored) {
        return stored;
      }

      @Override
      public float[] load(float[] values, Shape stored) {
        float[] out = new float[values.length];
        for (int i = 0; i < out.length; i++) {
          out[i] = (float) load.applyAsDouble(values[i]);
        }
        return out;
      }

      @Override
      public float[] store(float[] values, Shape stored) {
        float[] out = new float[values.length];
        for (int i = 0; i < out.length; i++) {
          out[i] = (float) store.applyAsDouble(values[i]);
        }
        return out;
      }
    };
  }

  private static void requireMatrix(Shape stored) {
    if (stored.rank() != 2) {
      throw new IllegalArgumentException(
          "a transposed view needs a matrix, the parameter has " + "shape " + stored);
    }
  }

  private static float[] transposed(float[] v, int rows, int cols) {
    float[] out = new float[v.length];
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < cols; c++) {
        out[c * rows + r] = v[r * cols + c];
      }
    }
    return out;
  }
}
