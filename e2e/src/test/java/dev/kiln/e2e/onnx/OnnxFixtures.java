package dev.kiln.e2e.onnx;

import static dev.kiln.onnx.OnnxBuilder.i;
import static dev.kiln.onnx.OnnxBuilder.ints;

import dev.kiln.onnx.OnnxBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * The ONNX files the end-to-end tests import, written as PyTorch's exporter writes a LeNet (opset
 * 13, names such as {@code input.1}, {@code conv1.weight} and {@code /conv1/Conv_output_0}, a
 * flatten and {@code Gemm}s with {@code transB = 1}), with fixed random weights. They live in
 * {@code src/test/resources/dev/kiln/e2e/onnx/}, where the models that import them find them when
 * they compile; {@code OnnxModelTest} checks that they are what this class writes. To write them
 * again: {@code mvn -B -q -pl e2e test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=dev.kiln.e2e.onnx.OnnxFixtures}.
 */
public final class OnnxFixtures {
  /** Where the files live in the sources. */
  static final Path DIR = Path.of("src/test/resources/dev/kiln/e2e/onnx");

  private OnnxFixtures() {}

  /** The LeNet, as bytes. */
  static byte[] lenet() {
    Random rng = new Random(2026);
    return new OnnxBuilder(13)
        .input("input.1", "batch", 1, 28, 28)
        .random("conv1.weight", rng, 0.3, 6, 1, 5, 5)
        .random("conv1.bias", rng, 0.05, 6)
        .random("conv2.weight", rng, 0.12, 16, 6, 5, 5)
        .random("conv2.bias", rng, 0.05, 16)
        .random("fc1.weight", rng, 0.07, 120, 400)
        .random("fc1.bias", rng, 0.05, 120)
        .random("fc2.weight", rng, 0.1, 84, 120)
        .random("fc2.bias", rng, 0.05, 84)
        .random("fc3.weight", rng, 0.15, 10, 84)
        .random("fc3.bias", rng, 0.05, 10)
        .node(
            "Conv",
            List.of("input.1", "conv1.weight", "conv1.bias"),
            List.of("/conv1/Conv_output_0"),
            ints("kernel_shape", 5, 5),
            ints("pads", 2, 2, 2, 2))
        .node("Relu", List.of("/conv1/Conv_output_0"), List.of("/Relu_output_0"))
        .node(
            "MaxPool",
            List.of("/Relu_output_0"),
            List.of("/pool/MaxPool_output_0"),
            ints("kernel_shape", 2, 2),
            ints("strides", 2, 2))
        .node(
            "Conv",
            List.of("/pool/MaxPool_output_0", "conv2.weight", "conv2.bias"),
            List.of("/conv2/Conv_output_0"),
            ints("kernel_shape", 5, 5))
        .node("Relu", List.of("/conv2/Conv_output_0"), List.of("/Relu_1_output_0"))
        .node(
            "MaxPool",
            List.of("/Relu_1_output_0"),
            List.of("/pool_1/MaxPool_output_0"),
            ints("kernel_shape", 2, 2),
            ints("strides", 2, 2))
        .node(
            "Flatten",
            List.of("/pool_1/MaxPool_output_0"),
            List.of("/Flatten_output_0"),
            i("axis", 1))
        .node(
            "Gemm",
            List.of("/Flatten_output_0", "fc1.weight", "fc1.bias"),
            List.of("/fc1/Gemm_output_0"),
            i("transB", 1))
        .node("Relu", List.of("/fc1/Gemm_output_0"), List.of("/Relu_2_output_0"))
        .node(
            "Gemm",
            List.of("/Relu_2_output_0", "fc2.weight", "fc2.bias"),
            List.of("/fc2/Gemm_output_0"),
            i("transB", 1))
        .node("Relu", List.of("/fc2/Gemm_output_0"), List.of("/Relu_3_output_0"))
        .node(
            "Gemm",
            List.of("/Relu_3_output_0", "fc3.weight", "fc3.bias"),
            List.of("logits"),
            i("transB", 1))
        .output("logits", "batch", 10)
        .build()
        .toByteArray();
  }

  /**
   * A sequence classifier as PyTorch's exporter writes an {@code nn.LSTM} over batch-first input: a
   * transpose to time-major, a bidirectional LSTM of 4 units (W, R, B initializers, gates {@code
   * iofc}), {@code Y [steps, dirs, batch, units]} back to batch-first, flattened, and a {@code
   * Gemm} to 3 classes.
   */
  static byte[] lstm() {
    Random rng = new Random(2027);
    return new OnnxBuilder(13)
        .input("x", "batch", 6, 3)
        .random("lstm.weight", rng, 0.4, 2, 16, 3)
        .random("lstm.recurrence", rng, 0.4, 2, 16, 4)
        .random("lstm.bias", rng, 0.2, 2, 32)
        .random("fc.weight", rng, 0.2, 3, 48)
        .random("fc.bias", rng, 0.05, 3)
        .int64("flat", new long[] {0, 48}, 2)
        .node("Transpose", List.of("x"), List.of("/Transpose_output_0"), ints("perm", 1, 0, 2))
        .node(
            "LSTM",
            List.of("/Transpose_output_0", "lstm.weight", "lstm.recurrence", "lstm.bias"),
            List.of("/lstm/LSTM_output_0", "", ""),
            i("hidden_size", 4),
            OnnxBuilder.s("direction", "bidirectional"))
        .node(
            "Transpose",
            List.of("/lstm/LSTM_output_0"),
            List.of("/Transpose_1_output_0"),
            ints("perm", 2, 0, 1, 3))
        .node("Reshape", List.of("/Transpose_1_output_0", "flat"), List.of("/Reshape_output_0"))
        .node(
            "Gemm",
            List.of("/Reshape_output_0", "fc.weight", "fc.bias"),
            List.of("logits"),
            i("transB", 1))
        .output("logits", "batch", 3)
        .build()
        .toByteArray();
  }

  /** Writes the files into {@link #DIR}. */
  public static void main(String[] args) throws IOException {
    Files.createDirectories(DIR);
    Files.write(DIR.resolve("lenet.onnx"), lenet());
    Files.write(DIR.resolve("lstm.onnx"), lstm());
  }
}
