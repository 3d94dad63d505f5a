package dev.kiln.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.kiln.onnx.OnnxFile;
import dev.kiln.onnx.proto.Onnx.ModelProto;
import dev.kiln.onnx.proto.Onnx.TensorProto;
import dev.kiln.runtime.Init;
import dev.kiln.runtime.exec.Parameter;
import dev.kiln.sample.models.FashionMlpModel;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code kiln export --checkpoint PREFIX --onnx FILE}: the file holds the inputs (batch symbolic),
 * the outputs and the checkpoint's weights; bad opsets are usage mistakes; int8 checkpoints are
 * refused by name before anything is written. ONNX Runtime runs such files in e2e's OnnxExportTest.
 */
class ExportCommandTest {
  @TempDir Path dir;

  private record Run(int code, String err) {}

  private static Run run(String... args) {
    CommandLine cl = Kiln.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err));
    return new Run(cl.execute(args), err.toString());
  }

  @Test
  void aCheckpointBecomesAnOnnxFileWithItsWeights() throws Exception {
    Path prefix = dir.resolve("mlp");
    float[] hidden;
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 3)) {
      m.save(prefix);
      Parameter p = m.params().get("hidden_weight");
      hidden = p.get();
    }
    Path file = dir.resolve("out/mlp.onnx");
    Run r =
        run(
            "export",
            "--checkpoint",
            prefix.toString(),
            "--input",
            "pixels=BATCH,784",
            "--onnx",
            file.toString(),
            "--opset",
            "18");
    assertEquals(0, r.code(), r.err());
    ModelProto model = OnnxFile.read(file);
    assertEquals(18, model.getOpsetImport(0).getVersion());
    assertEquals("pixels", model.getGraph().getInput(0).getName());
    var dims = model.getGraph().getInput(0).getType().getTensorType().getShape().getDimList();
    assertEquals("batch", dims.get(0).getDimParam());
    assertEquals(784, dims.get(1).getDimValue());
    assertEquals("probs", model.getGraph().getOutput(0).getName());
    TensorProto w =
        model.getGraph().getInitializerList().stream()
            .filter(t -> t.getName().equals("hidden_weight"))
            .findFirst()
            .orElseThrow();
    float[] stored = new float[hidden.length];
    ByteBuffer.wrap(w.getRawData().toByteArray())
        .order(ByteOrder.LITTLE_ENDIAN)
        .asFloatBuffer()
        .get(stored);
    assertEquals(java.util.Arrays.toString(hidden), java.util.Arrays.toString(stored));
  }

  @Test
  void anOpsetOutOfRangeIsAUsageMistake() throws Exception {
    Path prefix = dir.resolve("mlp");
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 3)) {
      m.save(prefix);
    }
    Path file = dir.resolve("mlp.onnx");
    Run r =
        run(
            "export",
            "--checkpoint",
            prefix.toString(),
            "--onnx",
            file.toString(),
            "--opset",
            "12");
    assertEquals(2, r.code(), r.err());
    assertTrue(r.err().contains("--opset 12: choose 13 to 21"), r.err());
    // A model's checkpoint records its input's shape: no --input needed.
    Run recorded = run("export", "--checkpoint", prefix.toString(), "--onnx", file.toString());
    assertEquals(0, recorded.code(), recorded.err());
    assertEquals(
        784,
        OnnxFile.read(file)
            .getGraph()
            .getInput(0)
            .getType()
            .getTensorType()
            .getShape()
            .getDim(1)
            .getDimValue());
    Files.delete(file);
    // A checkpoint whose symbol records no input shapes (MXNet's own exports) needs them given.
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 3)) {
      Files.writeString(dir.resolve("mlp-symbol.json"), m.symbolJson());
    }
    Run none = run("export", "--checkpoint", prefix.toString(), "--onnx", file.toString());
    assertEquals(1, none.code(), none.err());
    assertTrue(none.err().contains("give them with --input NAME=DIMS"), none.err());
    assertFalse(Files.exists(file));
  }

  @Test
  void anInt8CheckpointIsRefusedByName() throws Exception {
    Path data = Path.of("/usr/share/datasets/fashion-mnist");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isDirectory(data), "Fashion-MNIST is not installed");
    Path prefix = dir.resolve("mlp");
    try (FashionMlpModel m = FashionMlpModel.create(Init.xavier(), 2)) {
      m.save(prefix);
    }
    Path int8 = dir.resolve("mlp-int8");
    CommandLine cl = Kiln.commandLine();
    cl.setErr(new PrintWriter(new StringWriter()));
    assertEquals(
        0,
        cl.execute(
            "quantize",
            "--checkpoint",
            prefix.toString(),
            "--input",
            "pixels=BATCH,784",
            "--calibration-batches",
            "1",
            "--batch-size",
            "32",
            "--to",
            int8.toString()));
    Path file = dir.resolve("int8.onnx");
    Run r = run("export", "--checkpoint", int8.toString(), "--onnx", file.toString());
    assertEquals(1, r.code(), r.err());
    assertTrue(r.err().contains("int8 (quantised) and fused models are not exported"), r.err());
    assertTrue(r.err().contains("node '"), r.err());
    assertFalse(Files.exists(file));
  }
}
