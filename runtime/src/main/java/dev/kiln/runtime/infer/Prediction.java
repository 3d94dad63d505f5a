package dev.kiln.runtime.infer;

import dev.kiln.runtime.graph.Shape;
import java.util.List;

/**
 * What one call of {@link Predictor#predict(List, float[][])} computed: each output's complete
 * shape (its free sizes as the call's input shapes fixed them) and its row-major values.
 *
 * @param shapes each output's shape, in {@link Predictor#outputs()} order
 * @param values each output's values, {@code shapes.get(o).size()} of them
 */
public record Prediction(List<Shape> shapes, float[][] values) {
  /** Copies the list of shapes. */
  public Prediction {
    shapes = List.copyOf(shapes);
  }
}
