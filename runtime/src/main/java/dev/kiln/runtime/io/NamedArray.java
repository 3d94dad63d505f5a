package dev.kiln.runtime.io;

import dev.kiln.runtime.graph.Shape;

/**
 * One array of an MXNet {@code .params} file: its key, its shape and its float32 values.
 *
 * @param key the file's name for it: {@code arg:<name>} for a parameter, {@code aux:<name>} for an
 *     auxiliary state (e.g. a BatchNorm moving mean)
 * @param shape its complete shape
 * @param data its values, row-major, exactly {@code shape.size()} of them (not copied)
 */
public record NamedArray(String key, Shape shape, float[] data) {
  /** Checks that the key is well formed and that {@code data} has one value per element. */
  public NamedArray {
    ParamsFile.checkKey(key);
    ParamsFile.checkShape(key, shape);
    if (data.length != shape.size()) {
      throw new IllegalArgumentException(
          "array '"
              + key
              + "' of shape "
              + shape
              + " takes "
              + shape.size()
              + " values, got "
              + data.length);
    }
  }

  /** The name without its {@code arg:} or {@code aux:} prefix. */
  public String name() {
    return key.substring(ParamsFile.ARG_PREFIX.length());
  }

  /** Whether the key is an auxiliary state's ({@code aux:}). */
  public boolean isAux() {
    return key.startsWith(ParamsFile.AUX_PREFIX);
  }
}
