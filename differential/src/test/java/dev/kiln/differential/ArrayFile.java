package dev.kiln.differential;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Named float arrays with their shapes in one file, how the test JVM and the second JVM hand
 * inputs, head gradients and results to each other: a count, then per array its name, rank,
 * dimensions and values (big-endian, {@link DataOutputStream}).
 */
final class ArrayFile {
  /** One array and its shape. */
  record Array(int[] shape, float[] values) {}

  private ArrayFile() {}

  /** Writes {@code arrays} (in their order) to {@code file}. */
  static void write(Path file, Map<String, Array> arrays) {
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
      out.writeInt(arrays.size());
      for (Map.Entry<String, Array> e : arrays.entrySet()) {
        out.writeUTF(e.getKey());
        int[] shape = e.getValue().shape();
        out.writeInt(shape.length);
        for (int d : shape) {
          out.writeInt(d);
        }
        float[] v = e.getValue().values();
        out.writeInt(v.length);
        for (float f : v) {
          out.writeFloat(f);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads what {@link #write} wrote, in order. */
  static Map<String, Array> read(Path file) {
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      int n = in.readInt();
      Map<String, Array> arrays = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        String name = in.readUTF();
        int[] shape = new int[in.readInt()];
        for (int d = 0; d < shape.length; d++) {
          shape[d] = in.readInt();
        }
        float[] v = new float[in.readInt()];
        for (int j = 0; j < v.length; j++) {
          v[j] = in.readFloat();
        }
        arrays.put(name, new Array(shape, v));
      }
      return arrays;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
