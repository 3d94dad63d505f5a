package dev.kiln.e2e.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.runtime.Init;
import dev.kiln.sample.models.FashionFcnModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model with free dimensions exported to ONNX: its input's free sizes become symbolic dimensions
 * named after them, and ONNX Runtime runs the one file at several sizes as Kiln does.
 */
class FreeDimExportTest {
  @TempDir Path dir;

  @Test
  void theFreeSizesAreNamedSymbolicDimensionsAndOnnxRuntimeRunsEverySize() throws Exception {
    Path file = dir.resolve("fcn.onnx");
    try (FashionFcnModel m = FashionFcnModel.create(Init.xavier(), 8);
        NDManager nd = NDManager.newBaseManager()) {
      m.exportOnnx(file);
      ModelProto proto = ModelProto.parseFrom(Files.readAllBytes(file));
      assertEquals(
          List.of("batch", "", "H", "W"),
          proto.getGraph().getInput(0).getType().getTensorType().getShape().getDimList().stream()
              .map(d -> d.getDimParam())
              .toList(),
          "symbolic dimensions");
      {
        Random rng = new Random(3);
        for (int[] hw : new int[][] {{28, 28}, {13, 40}}) {
          float[] x = new float[2 * hw[0] * hw[1]];
          for (int i = 0; i < x.length; i++) {
            x[i] = rng.nextFloat();
          }
          NDArray in = nd.create(x, new ai.djl.ndarray.types.Shape(2, 1, hw[0], hw[1]));
          float[] kiln = m.forward(in).toFloatArray();
          List<float[]> ort =
              OnnxExportTest.onnxRuntime(
                  file, m, List.of(x), List.of(new long[] {2, 1, hw[0], hw[1]}));
          assertArrayEquals(kiln, ort.get(0), 1e-5f, hw[0] + "x" + hw[1]);
        }
      }
    }
  }
}
