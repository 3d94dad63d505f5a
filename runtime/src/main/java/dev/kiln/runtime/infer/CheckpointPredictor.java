package dev.kiln.runtime.infer;

import dev.kiln.runtime.exec.Tensor;
import dev.kiln.runtime.graph.Dimensions;
import dev.kiln.runtime.graph.Shape;
import dev.kiln.runtime.io.Checkpoint;
import dev.kiln.runtime.io.NamedArray;
import dev.kiln.runtime.io.ParamsFile;
import dev.kiln.runtime.mxnet.SymbolHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Loads a {@link Predictor} from an MXNet checkpoint (see {@link Predictor#load}). */
final class CheckpointPredictor {
  private CheckpointPredictor() {}

  static Predictor load(Path prefix, InferenceOptions options, List<Port> given) {
    Path symbolFile = Checkpoint.symbolFile(prefix);
    Path paramsFile = Checkpoint.paramsFile(prefix);
    String json;
    List<NamedArray> stored;
    try {
      if (Files.size(symbolFile) > Checkpoint.MAX_SYMBOL_BYTES) {
        throw new IOException(symbolFile + " is larger than " + Checkpoint.MAX_SYMBOL_BYTES);
      }
      json = Files.readString(symbolFile);
      stored = ParamsFile.read(paramsFile);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read checkpoint " + prefix + ": " + e.getMessage(), e);
    }
    Map<String, Shape> shapes = new LinkedHashMap<>(SymbolAttrs.shapes(json));
    Dimensions dims = SymbolAttrs.dimensions(json);
    List<String> arguments;
    try (SymbolHandle sym = SymbolHandle.fromJson(json)) {
      arguments = sym.arguments();
    }
    for (Port p : given) {
      if (!arguments.contains(p.name())) {
        throw new IllegalArgumentException(
            "checkpoint "
                + prefix
                + " has no input '"
                + p.name()
                + "'; its symbol's arguments are "
                + arguments);
      }
      shapes.put(p.name(), p.shape());
    }
    Map<String, Tensor> arrays = new LinkedHashMap<>();
    Map<String, Tensor> byKey = new LinkedHashMap<>();
    try {
      for (NamedArray a : stored) {
        Tensor t = Tensor.zeros(a.shape(), 0);
        arrays.put(a.name(), t);
        byKey.put(a.key(), t);
      }
      // Read again through the checkpoint reader: it checks the SHA-256 beside the file.
      Checkpoint.readParams(paramsFile, byKey, false);
      List<Port> inputs = new ArrayList<>();
      for (String a : arguments) {
        if (arrays.containsKey(a)) {
          if (given.stream().anyMatch(p -> p.name().equals(a))) {
            throw new IllegalArgumentException(
                "checkpoint "
                    + prefix
                    + ": '"
                    + a
                    + "' is a parameter ("
                    + paramsFile.getFileName()
                    + " holds it), not an input");
          }
          continue;
        }
        Shape s = shapes.get(a);
        if (s == null) {
          throw new IllegalArgumentException(
              "checkpoint "
                  + prefix
                  + ": argument '"
                  + a
                  + "' has no array in "
                  + paramsFile.getFileName()
                  + " and no recorded shape ("
                  + Predictor.SHAPE_ATTR
                  + "), so it is neither a parameter nor a known input");
        }
        inputs.add(new Port(a, labelled(s, dims)));
      }
      String name = prefix.getFileName().toString();
      return Predictor.create(
          name, json, inputs, SymbolAttrs.headNames(json), arrays, Map.of(), dims, options);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read checkpoint " + prefix + ": " + e.getMessage(), e);
    } finally {
      Predictor.closeAll(arrays.values().toArray(Tensor[]::new));
    }
  }

  /**
   * {@code shape} with each free dimension labelled by its name in {@code dims}, where it has one.
   */
  private static Shape labelled(Shape shape, Dimensions dims) {
    List<String> names = new ArrayList<>();
    for (int d : shape.dims()) {
      if (Shape.isFree(d)) {
        String n = dims.nameOf(d);
        if (n == null) {
          return shape;
        }
        names.add(n);
      }
    }
    return names.isEmpty() ? shape : shape.free(names.toArray(String[]::new));
  }
}
