package dev.kiln.processor;

import static dev.kiln.onnx.OnnxBuilder.f;
import static dev.kiln.onnx.OnnxBuilder.i;
import static dev.kiln.onnx.OnnxBuilder.ints;
import static dev.kiln.onnx.OnnxBuilder.s;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kiln.onnx.OnnxBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The operators and variants of issue 34's second item imported by a model that compiles under
 * javac and ecj: the generated code calls each new unit's factories ({@code MathOp}, {@code
 * LogSoftmaxOp}, {@code TileOp}, {@code PadOp}, {@code InstanceNormOp}, the new {@code ReduceOp}
 * and {@code BroadcastOp} kinds, 3-D convolution and pooling, a fused GRU). Their numbers are
 * checked against ONNX Runtime in the end-to-end {@code OnnxAgreementTest}.
 */
class OnnxOperatorsCompileTest {
  @TempDir Path dir;

  static byte[] elementwise() {
    Random rng = new Random(34);
    return new OnnxBuilder(13)
        .input("x", "N", 4, 4, 4)
        .random("e", rng, 0.5, 4)
        .random("row", rng, 1, 4)
        .random("scale", rng, 0.5, 4)
        .random("shift", rng, 0.5, 4)
        .random("fc", rng, 0.2, 12, 5)
        .random("fcb", rng, 0.1, 5)
        .initializer("two", new float[] {2f}, new long[0])
        .int64("pads", new long[] {0, 0, 1, 1, 0, 0, 1, 1}, 8)
        .int64("reps", new long[] {1, 2, 1, 1}, 4)
        .int64("grow", new long[] {1, 3, 12, 12}, 4)
        .int64("parts", new long[] {1, 2}, 2)
        .node("Abs", List.of("x"), List.of("a"))
        .node("Sqrt", List.of("a"), List.of("b"))
        .node("Neg", List.of("b"), List.of("c"))
        .node("Exp", List.of("c"), List.of("d"))
        .node("Log", List.of("d"), List.of("l"))
        .node("HardSigmoid", List.of("l"), List.of("h"), f("alpha", 0.3f))
        .node("Pow", List.of("h", "two"), List.of("p"))
        .node("Exp", List.of("e"), List.of("base"))
        .node("Pow", List.of("base", "p"), List.of("q"))
        .node("Erf", List.of("q"), List.of("r"))
        .node("Sum", List.of("r", "p", "row"), List.of("sum"))
        .node("Mean", List.of("sum", "q"), List.of("mean"))
        .node("LogSoftmax", List.of("mean"), List.of("ls"), i("axis", 1))
        .node("InstanceNormalization", List.of("ls", "scale", "shift"), List.of("in"))
        .node("Pad", List.of("in", "pads"), List.of("pc"))
        .node("Pad", List.of("in", "pads"), List.of("pr"), s("mode", "reflect"))
        .node("Pad", List.of("in", "pads"), List.of("pe"), s("mode", "edge"))
        .node("Sum", List.of("pc", "pr", "pe"), List.of("padded"))
        .node("DepthToSpace", List.of("padded"), List.of("ds"), i("blocksize", 2))
        .node("Tile", List.of("ds", "reps"), List.of("t"))
        .node("ReduceMax", List.of("t"), List.of("mx"), ints("axes", 1))
        .node("Expand", List.of("mx", "grow"), List.of("ex"))
        .node("Split", List.of("ex", "parts"), List.of("s1", "s2"), i("axis", 1))
        .node("ReduceMin", List.of("s2"), List.of("mn"), ints("axes", 1))
        .node("Add", List.of("s1", "mn"), List.of("both"))
        .node("ReduceProd", List.of("both"), List.of("pr2"), ints("axes", 2), i("keepdims", 0))
        .node("Flatten", List.of("pr2"), List.of("flat"))
        .node("Gemm", List.of("flat", "fc", "fcb"), List.of("y"), f("alpha", 0.5f), f("beta", 2f))
        .output("y", "N", 5)
        .build()
        .toByteArray();
  }

  static byte[] volumes() {
    Random rng = new Random(35);
    return new OnnxBuilder(13)
        .input("v", "N", 1, 4, 4, 4)
        .random("w", rng, 0.3, 2, 1, 3, 3, 3)
        .node("Conv", List.of("v", "w"), List.of("c"), s("auto_pad", "SAME_UPPER"))
        .node(
            "MaxPool",
            List.of("c"),
            List.of("m"),
            ints("kernel_shape", 2, 2, 2),
            ints("strides", 2, 2, 2))
        .node("AveragePool", List.of("m"), List.of("y"), ints("kernel_shape", 1, 2, 2))
        .output("y", "N", 2, 2, 1, 1)
        .build()
        .toByteArray();
  }

  static byte[] sequence() {
    Random rng = new Random(36);
    return new OnnxBuilder(13)
        .input("s", "N", 5, 3)
        .random("w", rng, 0.4, 2, 12, 3)
        .random("r", rng, 0.4, 2, 12, 4)
        .random("b", rng, 0.2, 2, 24)
        .node("Transpose", List.of("s"), List.of("t"), ints("perm", 1, 0, 2))
        .node(
            "GRU",
            List.of("t", "w", "r", "b"),
            List.of("g"),
            i("hidden_size", 4),
            i("linear_before_reset", 1),
            s("direction", "bidirectional"))
        .node("Transpose", List.of("g"), List.of("y"), ints("perm", 2, 0, 1, 3))
        .output("y", "N", 5, 2, 4)
        .build()
        .toByteArray();
  }

  @ParameterizedTest
  @EnumSource(TestCompiler.class)
  void aModelImportingEveryNewOperatorCompiles(TestCompiler compiler) throws IOException {
    Path files = Files.createDirectories(dir.resolve("good/imported"));
    Files.write(files.resolve("elementwise.onnx"), elementwise());
    Files.write(files.resolve("volumes.onnx"), volumes());
    Files.write(files.resolve("sequence.onnx"), sequence());
    Result r =
        compiler.compile(
            List.of(), List.of(dir), List.of(TestCompiler.resource("good/imported/OnnxOperators")));
    assertEquals(List.of(), r.errors(), r.diagnostics().toString());
  }
}
