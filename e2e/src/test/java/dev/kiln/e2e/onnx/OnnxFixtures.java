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

  /**
   * A small fully convolutional network exported with dynamic height and width (PyTorch's {@code
   * dynamic_axes}: {@code dim_param}s {@code height} and {@code width}): a padded convolution with
   * ReLU and batch norm, max pooling by 2, two padded convolutions added, a 1×1 convolution beside
   * them joined along the channels, a transposed convolution back up by 2, a leaky ReLU and a 1×1
   * convolution scoring 3 classes per pixel.
   */
  static byte[] fcn() {
    Random rng = new Random(2028);
    return new OnnxBuilder(13)
        .input("input", "batch", 3, "height", "width")
        .random("conv0.weight", rng, 0.3, 8, 3, 3, 3)
        .random("conv0.bias", rng, 0.05, 8)
        .random("bn.weight", rng, 0.2, 8)
        .random("bn.bias", rng, 0.1, 8)
        .initializer("bn.running_mean", new float[] {0, .1f, -.1f, .2f, 0, 0, .3f, -.2f}, 8)
        .initializer("bn.running_var", new float[] {1, .5f, 2, 1, 1.5f, .8f, 1, 1.2f}, 8)
        .random("conv1.weight", rng, 0.2, 8, 8, 3, 3)
        .random("conv1.bias", rng, 0.05, 8)
        .random("conv2.weight", rng, 0.2, 8, 8, 3, 3)
        .random("conv2.bias", rng, 0.05, 8)
        .random("side.weight", rng, 0.3, 4, 8, 1, 1)
        .random("side.bias", rng, 0.05, 4)
        .random("up.weight", rng, 0.2, 12, 6, 2, 2)
        .random("up.bias", rng, 0.05, 6)
        .random("score.weight", rng, 0.3, 3, 6, 1, 1)
        .random("score.bias", rng, 0.05, 3)
        .node(
            "Conv",
            List.of("input", "conv0.weight", "conv0.bias"),
            List.of("/conv0/Conv_output_0"),
            ints("kernel_shape", 3, 3),
            ints("pads", 1, 1, 1, 1))
        .node("Relu", List.of("/conv0/Conv_output_0"), List.of("/Relu_output_0"))
        .node(
            "BatchNormalization",
            List.of("/Relu_output_0", "bn.weight", "bn.bias", "bn.running_mean", "bn.running_var"),
            List.of("/bn/BatchNormalization_output_0"))
        .node(
            "MaxPool",
            List.of("/bn/BatchNormalization_output_0"),
            List.of("/pool/MaxPool_output_0"),
            ints("kernel_shape", 2, 2),
            ints("strides", 2, 2))
        .node(
            "Conv",
            List.of("/pool/MaxPool_output_0", "conv1.weight", "conv1.bias"),
            List.of("/conv1/Conv_output_0"),
            ints("kernel_shape", 3, 3),
            ints("pads", 1, 1, 1, 1))
        .node(
            "Conv",
            List.of("/pool/MaxPool_output_0", "conv2.weight", "conv2.bias"),
            List.of("/conv2/Conv_output_0"),
            ints("kernel_shape", 3, 3),
            ints("pads", 1, 1, 1, 1))
        .node(
            "Add",
            List.of("/conv1/Conv_output_0", "/conv2/Conv_output_0"),
            List.of("/Add_output_0"))
        .node(
            "Conv",
            List.of("/pool/MaxPool_output_0", "side.weight", "side.bias"),
            List.of("/side/Conv_output_0"),
            ints("kernel_shape", 1, 1))
        .node(
            "Concat",
            List.of("/Add_output_0", "/side/Conv_output_0"),
            List.of("/Concat_output_0"),
            i("axis", 1))
        .node(
            "ConvTranspose",
            List.of("/Concat_output_0", "up.weight", "up.bias"),
            List.of("/up/ConvTranspose_output_0"),
            ints("kernel_shape", 2, 2),
            ints("strides", 2, 2))
        .node(
            "LeakyRelu",
            List.of("/up/ConvTranspose_output_0"),
            List.of("/LeakyRelu_output_0"),
            OnnxBuilder.f("alpha", 0.1f))
        .node(
            "Conv",
            List.of("/LeakyRelu_output_0", "score.weight", "score.bias"),
            List.of("scores"),
            ints("kernel_shape", 1, 1))
        .output("scores", "batch", 3, "height_out", "width_out")
        .build()
        .toByteArray();
  }

  /** Writes the files into {@link #DIR}. */
  public static void main(String[] args) throws IOException {
    Files.createDirectories(DIR);
    Files.write(DIR.resolve("lenet.onnx"), lenet());
    Files.write(DIR.resolve("lstm.onnx"), lstm());
    Files.write(DIR.resolve("fcn.onnx"), fcn());
  }
}
