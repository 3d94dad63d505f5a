package dev.kiln.runtime.infer;

import dev.kiln.runtime.graph.Shape;

/**
 * One input or output of a {@link Predictor}: its name and its shape, with {@link Shape#BATCH} (-1)
 * in the one dimension that the batch size fills.
 *
 * @param name the input's or output's name (an MXNet variable or a model output)
 * @param shape the shape; exactly one dimension is {@link Shape#BATCH}
 */
public record Port(String name, Shape shape) {
  /** Checks that exactly one dimension is the batch and every other one is known. */
  public Port {
    int batches = 0;
    for (int d : shape.dims()) {
      if (d == Shape.BATCH) {
        batches++;
      } else if (d <= 0) {
        throw new IllegalArgumentException(
            "'" + name + "' of shape " + shape + ": every dimension but the batch must be known");
      }
    }
    if (batches != 1) {
      throw new IllegalArgumentException(
          "'" + name + "' of shape " + shape + ": exactly one dimension must be the batch (-1)");
    }
  }

  /** The index of the batch dimension. */
  public int batchAxis() {
    int[] d = shape.dims();
    for (int i = 0; i < d.length; i++) {
      if (d[i] == Shape.BATCH) {
        return i;
      }
    }
    throw new AssertionError(shape);
  }

  /** The values one example takes: the product of every dimension but the batch. */
  public int exampleSize() {
    return (int) shape.withBatch(1).size();
  }

  /** The complete shape for {@code batch} examples. */
  public Shape forBatch(int batch) {
    return shape.withBatch(batch);
  }
}
