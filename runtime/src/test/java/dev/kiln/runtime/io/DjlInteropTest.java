package dev.kiln.runtime.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import ai.djl.Model;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.translate.NoopTranslator;
import dev.kiln.annotations.Act;
import dev.kiln.annotations.Sym;
import dev.kiln.ops.ConcatOp;
import dev.kiln.ops.DenseOp;
import dev.kiln.ops.emit.NodeSource;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.ModelRuntime;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.graph.Shape;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Kiln checkpoint read by an independent MXNet client: DJL's MXNet engine loads {@code
 * prefix-symbol.json} and {@code prefix-0000.params} as a SymbolBlock and must compute what the
 * Kiln model computes.
 */
class DjlInteropTest {
  @TempDir Path dir;

  @Test
  void djlLoadsAKilnCheckpointAndComputesTheSameOutputs() throws Exception {
    try (ModelRuntime kiln = CheckpointTest.model(16, 3);
        NDManager nd = NDManager.newBaseManager()) {
      kiln.save(dir.resolve("mlp"));
      NDArray x = nd.randomNormal(new ai.djl.ndarray.types.Shape(5, 6));
      float[] expected = kiln.forward(x)[0].toFloatArray();
      try (Model model = Model.newInstance("mlp", "MXNet")) {
        model.load(dir, "mlp");
        try (Predictor<NDList, NDList> predictor = model.newPredictor(new NoopTranslator())) {
          NDList out = predictor.predict(new NDList(x));
          assertEquals(1, out.size());
          assertEquals(new ai.djl.ndarray.types.Shape(5, 3), out.head().getShape());
          assertArrayEquals(expected, out.head().toFloatArray(), 1e-5f);
        }
      }
    }
  }

  @Test
  void severalInputsAndOutputsKeepTheirOrderInDjl() throws Exception {
    GraphBuilder b = new GraphBuilder("Two");
    Sym x = b.input(new NodeSource("x", "Two.x()", "@Input(shape = {BATCH, 3})"), Shape.of(-1, 3));
    Sym z = b.input(new NodeSource("z", "Two.z()", "@Input(shape = {BATCH, 2})"), Shape.of(-1, 2));
    Sym both = b.node(new NodeSource("both", "Two.both()", "@Concat"), ConcatOp.axis(1), x, z);
    Sym h =
        b.node(
            new NodeSource("h", "Two.h()", "@Dense(units = 4)"),
            DenseOp.units(4).activation(Act.TANH),
            both);
    Sym y = b.node(new NodeSource("y", "Two.y()", "@Dense(units = 2)"), DenseOp.units(2), h);
    try (ModelRuntime kiln =
            new ModelRuntime("TwoModel", b.build(List.of(y, h)), Init.xavier(), 9);
        NDManager nd = NDManager.newBaseManager()) {
      kiln.save(dir.resolve("two"));
      NDArray xs = nd.randomNormal(new ai.djl.ndarray.types.Shape(4, 3));
      NDArray zs = nd.randomNormal(new ai.djl.ndarray.types.Shape(4, 2));
      NDArray[] expected = kiln.forward(xs, zs);
      try (Model model = Model.newInstance("two", "MXNet")) {
        model.load(dir, "two");
        try (Predictor<NDList, NDList> predictor = model.newPredictor(new NoopTranslator())) {
          NDList out = predictor.predict(new NDList(xs, zs));
          assertEquals(2, out.size());
          assertArrayEquals(expected[0].toFloatArray(), out.get(0).toFloatArray(), 1e-5f);
          assertArrayEquals(expected[1].toFloatArray(), out.get(1).toFloatArray(), 1e-5f);
        }
      }
    }
  }
}
