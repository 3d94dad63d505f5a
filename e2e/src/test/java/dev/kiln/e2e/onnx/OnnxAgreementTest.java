package dev.kiln.e2e.onnx;

import static dev.kiln.e2e.onnx.OnnxPeer.random;
import static dev.kiln.onnx.OnnxBuilder.f;
import static dev.kiln.onnx.OnnxBuilder.i;
import static dev.kiln.onnx.OnnxBuilder.ints;
import static dev.kiln.onnx.OnnxBuilder.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.ndarray.NDManager;
import dev.kiln.onnx.OnnxBuilder;
import dev.kiln.runtime.TestJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * ONNX files written here, operator by operator and opset variant by variant, run by ONNX Runtime
 * and imported into Kiln on MXNet: every output within 1e-5 relative, with oneDNN on and, in a
 * child JVM, off (recurrent layers with oneDNN only, as the runtime requires). While debugging,
 * {@code -Dkiln.onnxCase=lstm} runs the in-process test on the cases whose names contain it.
 */
class OnnxAgreementTest {
  /**
   * One case: a model, its inputs, and the model ONNX Runtime runs instead where it cannot run this
   * one (null for this one).
   */
  private record Case(OnnxBuilder model, Map<String, OnnxPeer.Input> inputs, OnnxBuilder peer) {
    Case(OnnxBuilder model, Map<String, OnnxPeer.Input> inputs) {
      this(model, inputs, null);
    }
  }

  private static Case one(OnnxBuilder b, OnnxPeer.Input x) {
    return new Case(b, Map.of("x", x));
  }

  private static final Map<String, java.util.function.Supplier<Case>> CASES = new TreeMap<>();

  static {
    Random rng = new Random(11);
    CASES.put(
        "cnn",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 1, 12, 12)
                    .random("w", rng, 0.3, 8, 1, 3, 3)
                    .random("b", rng, 0.1, 8)
                    .random("scale", rng, 0.2, 8)
                    .random("shift", rng, 0.2, 8)
                    .initializer("mean", new float[] {0, .1f, -.1f, .2f, 0, 0, .3f, -.2f}, 8)
                    .initializer("var", new float[] {1, .5f, 2, 1, 1.5f, .8f, 1, 1.2f}, 8)
                    .random("fc", rng, 0.1, 5, 8 * 6 * 6)
                    .random("fcb", rng, 0.1, 5)
                    .node("Conv", List.of("x", "w", "b"), List.of("c"), s("auto_pad", "SAME_UPPER"))
                    .node(
                        "BatchNormalization",
                        List.of("c", "scale", "shift", "mean", "var"),
                        List.of("n"),
                        f("epsilon", 1e-3f))
                    .node("Relu", List.of("n"), List.of("r"))
                    .node(
                        "MaxPool",
                        List.of("r"),
                        List.of("p"),
                        ints("kernel_shape", 2, 2),
                        ints("strides", 2, 2))
                    .node("Flatten", List.of("p"), List.of("fl"))
                    .node("Gemm", List.of("fl", "fc", "fcb"), List.of("g"), i("transB", 1))
                    .node("Softmax", List.of("g"), List.of("y"))
                    .output("y", "N", 5),
                random(rng, 3, 1, 12, 12)));
    CASES.put(
        "mlpMatMulAndGemmUntransposed",
        () ->
            one(
                new OnnxBuilder(11)
                    .input("x", "N", 6)
                    .random("w1", rng, 0.4, 6, 5)
                    .random("b1", rng, 0.1, 5)
                    .random("w2", rng, 0.4, 5, 3)
                    .random("b2", rng, 0.1, 3)
                    .node("MatMul", List.of("x", "w1"), List.of("h"))
                    .node("Add", List.of("h", "b1"), List.of("hb"))
                    .node("Tanh", List.of("hb"), List.of("t"))
                    .node("Gemm", List.of("t", "w2", "b2"), List.of("g"))
                    .node("Sigmoid", List.of("g"), List.of("y"))
                    .output("y", "N", 3),
                random(rng, 4, 6)));
    CASES.put(
        "broadcastingWithConstants",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 4, 3, 3)
                    .random("gain", rng, 1, 4, 1, 1)
                    .initializer("two", new float[] {2f}, new long[0])
                    .initializer("row", new float[] {1, 2, 3}, 3)
                    .node("Mul", List.of("x", "gain"), List.of("a"))
                    .node("Sub", List.of("a", "two"), List.of("b"))
                    .node("Div", List.of("b", "row"), List.of("c"))
                    .node("Max", List.of("c", "x"), List.of("y"))
                    .output("y", "N", 4, 3, 3),
                random(rng, 2, 4, 3, 3)));
    CASES.put(
        "activations",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 2, 5)
                    .random("slope", rng, 0.2, 2, 1)
                    .node("LeakyRelu", List.of("x"), List.of("a"), f("alpha", 0.2f))
                    .node("Elu", List.of("a"), List.of("b"), f("alpha", 0.7f))
                    .node("Selu", List.of("b"), List.of("c"))
                    .node("Softplus", List.of("c"), List.of("d"))
                    .node("Softsign", List.of("d"), List.of("e"))
                    .node("PRelu", List.of("e", "slope"), List.of("y"))
                    .output("y", "N", 2, 5),
                random(rng, 3, 2, 5)));
    CASES.put(
        "opset6ClipAndSoftmaxAndReshapeAttributes",
        () ->
            one(
                new OnnxBuilder(6)
                    .input("x", "N", 3, 4)
                    .int64("shape", new long[] {0, 12}, 2)
                    .node("Clip", List.of("x"), List.of("c"), f("min", -0.5f), f("max", 0.7f))
                    .node("Reshape", List.of("c", "shape"), List.of("r"))
                    .node("Softmax", List.of("r"), List.of("y"))
                    .output("y", "N", 12),
                random(rng, 2, 3, 4)));
    CASES.put(
        "opset11ClipInputsAndSqueeze",
        () ->
            one(
                new OnnxBuilder(11)
                    .input("x", "N", 1, 4)
                    .initializer("lo", new float[] {-0.3f}, new long[0])
                    .initializer("hi", new float[] {0.4f}, new long[0])
                    .node("Clip", List.of("x", "lo", "hi"), List.of("c"))
                    .node("Squeeze", List.of("c"), List.of("s"), ints("axes", 1))
                    .node("Unsqueeze", List.of("s"), List.of("y"), ints("axes", 2))
                    .output("y", "N", 4, 1),
                random(rng, 3, 1, 4)));
    CASES.put(
        "opset13FlattenIdiomAndAxesInputs",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 4, 3, 3)
                    .int64("zero", new long[] {0})
                    .int64("axes", new long[] {0}, 1)
                    .int64("minus", new long[] {-1}, 1)
                    .node(
                        "ReduceMean",
                        List.of("x"),
                        List.of("m"),
                        ints("axes", 2, 3),
                        i("keepdims", 1))
                    .node("Sub", List.of("x", "m"), List.of("centred"))
                    .node("Shape", List.of("centred"), List.of("sh"))
                    .node("Gather", List.of("sh", "zero"), List.of("n"), i("axis", 0))
                    .node("Unsqueeze", List.of("n", "axes"), List.of("n1"))
                    .node("Concat", List.of("n1", "minus"), List.of("target"), i("axis", 0))
                    .node("Reshape", List.of("centred", "target"), List.of("y"))
                    .output("y", "N", 36),
                random(rng, 2, 4, 3, 3)));
    CASES.put(
        "poolsAndLrnAndUpsampling",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 3, 8, 8)
                    .initializer("scales", new float[] {1, 1, 2, 2}, 4)
                    .node(
                        "AveragePool",
                        List.of("x"),
                        List.of("a"),
                        ints("kernel_shape", 3, 3),
                        ints("pads", 1, 1, 1, 1),
                        i("count_include_pad", 1))
                    .node(
                        "LRN",
                        List.of("a"),
                        List.of("l"),
                        i("size", 3),
                        f("alpha", 0.01f),
                        f("beta", 0.75f),
                        f("bias", 1f))
                    .node(
                        "MaxPool",
                        List.of("l"),
                        List.of("m"),
                        ints("kernel_shape", 3, 3),
                        ints("strides", 2, 2),
                        i("ceil_mode", 1))
                    .node(
                        "Resize",
                        List.of("m", "", "scales"),
                        List.of("u"),
                        s("mode", "nearest"),
                        s("coordinate_transformation_mode", "asymmetric"),
                        s("nearest_mode", "floor"))
                    .node("GlobalAveragePool", List.of("u"), List.of("y"))
                    .output("y", "N", 3, 1, 1),
                random(rng, 2, 3, 8, 8)));
    CASES.put(
        "transposedAndGroupedAndDilatedConvolutions",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 4, 6, 6)
                    .random("wg", rng, 0.3, 4, 2, 3, 3)
                    .random("wt", rng, 0.3, 4, 3, 2, 2)
                    .random("bt", rng, 0.1, 3)
                    .node(
                        "Conv",
                        List.of("x", "wg"),
                        List.of("g"),
                        i("group", 2),
                        ints("dilations", 2, 2),
                        ints("pads", 2, 2, 2, 2))
                    .node(
                        "ConvTranspose",
                        List.of("g", "wt", "bt"),
                        List.of("y"),
                        ints("strides", 2, 2))
                    .output("y", "N", 3, 12, 12),
                random(rng, 2, 4, 6, 6)));
    CASES.put(
        "conv1dAndSliceAndConcatAndTranspose",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 2, 10)
                    .random("w", rng, 0.3, 3, 2, 3)
                    .int64("starts", new long[] {1}, 1)
                    .int64("ends", new long[] {9}, 1)
                    .int64("axes", new long[] {2}, 1)
                    .node("Conv", List.of("x", "w"), List.of("c"))
                    .node("Slice", List.of("x", "starts", "ends", "axes"), List.of("s"))
                    .node("Concat", List.of("c", "s"), List.of("j"), i("axis", 1))
                    .node("Transpose", List.of("j"), List.of("y"), ints("perm", 0, 2, 1))
                    .output("y", "N", 8, 5),
                random(rng, 2, 2, 10)));
    CASES.put(
        "layerNormAndGelu",
        () ->
            one(
                new OnnxBuilder(20)
                    .input("x", "N", 3, 6)
                    .random("g", rng, 0.5, 6)
                    .random("b", rng, 0.5, 6)
                    .node(
                        "LayerNormalization",
                        List.of("x", "g", "b"),
                        List.of("n"),
                        f("epsilon", 1e-5f))
                    .node("Gelu", List.of("n"), List.of("y"))
                    .output("y", "N", 3, 6),
                random(rng, 2, 3, 6)));
    CASES.put(
        "embeddingOfTokenIds",
        () -> {
          float[] ids = {0, 3, 7, 2, 9, 1};
          return new Case(
              new OnnxBuilder(11)
                  .typedInput(
                      "x", dev.kiln.onnx.proto.Onnx.TensorProto.DataType.INT64_VALUE, "N", 3)
                  .random("table", rng, 1, 10, 4)
                  .node("Gather", List.of("table", "x"), List.of("e"), i("axis", 0))
                  .node("ReduceSum", List.of("e"), List.of("y"), ints("axes", 1), i("keepdims", 0))
                  .output("y", "N", 4),
              Map.of("x", new OnnxPeer.Input(ids, new long[] {2, 3}, true)));
        });
    CASES.put(
        "gemmTransAAlphaBetaOverFixedSizes",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", 4, 3)
                    .random("w", rng, 0.4, 4, 5)
                    .random("c", rng, 0.3, 5)
                    .node(
                        "Gemm",
                        List.of("x", "w", "c"),
                        List.of("y"),
                        i("transA", 1),
                        f("alpha", 0.5f),
                        f("beta", 2f))
                    .output("y", 3, 5),
                random(rng, 4, 3)));
    CASES.put(
        "gemmAndMatMulWithComputedBAndBroadcastC",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 6)
                    .random("w", rng, 0.5, 3, 6)
                    .random("v", rng, 0.5, 3, 4)
                    .random("c", rng, 0.3, 1, 3)
                    .random("d", rng, 0.3, 3)
                    .node("Tanh", List.of("w"), List.of("b"))
                    .node(
                        "Gemm",
                        List.of("x", "b", "c"),
                        List.of("g"),
                        i("transB", 1),
                        f("alpha", 1.5f),
                        f("beta", 0.5f))
                    .node("Sigmoid", List.of("v"), List.of("sv"))
                    .node("MatMul", List.of("g", "sv"), List.of("m"))
                    .node("Gemm", List.of("m", "sv", "d"), List.of("y"), i("transB", 1))
                    .output("y", "N", 3),
                random(rng, 3, 6)));
    CASES.put(
        "unaryMathAndSumAndMean",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 3, 4)
                    .initializer("two", new float[] {2f}, new long[0])
                    .random("row", rng, 1, 4)
                    .node("Abs", List.of("x"), List.of("a"))
                    .node("Sqrt", List.of("a"), List.of("s"))
                    .node("Neg", List.of("s"), List.of("ns"))
                    .node("Exp", List.of("ns"), List.of("e"))
                    .node("Log", List.of("e"), List.of("l"))
                    .node("Pow", List.of("x", "two"), List.of("p"))
                    .node("Erf", List.of("x"), List.of("er"))
                    .node(
                        "HardSigmoid",
                        List.of("x"),
                        List.of("h"),
                        f("alpha", 0.3f),
                        f("beta", 0.4f))
                    .node("Sum", List.of("s", "e", "p", "row"), List.of("sum"))
                    .node("Mean", List.of("er", "h", "l"), List.of("mean"))
                    .node("Sum", List.of("sum", "mean"), List.of("y"))
                    .output("y", "N", 3, 4),
                random(rng, 2, 3, 4)));
    CASES.put(
        "logSoftmaxBeforeAndFromSet13",
        () ->
            one(
                new OnnxBuilder(11)
                    .input("x", "N", 5)
                    .node("LogSoftmax", List.of("x"), List.of("y"), i("axis", 1))
                    .output("y", "N", 5),
                random(rng, 3, 5)));
    CASES.put(
        "logSoftmaxAlongAnAxis",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 4, 3)
                    .node("LogSoftmax", List.of("x"), List.of("y"), i("axis", 1))
                    .output("y", "N", 4, 3),
                random(rng, 2, 4, 3)));
    CASES.put(
        "reduceMaxMinProdWithAxesAttributes",
        () ->
            one(
                new OnnxBuilder(12)
                    .input("x", "N", 3, 4)
                    .node("ReduceMax", List.of("x"), List.of("a"), ints("axes", 2))
                    .node("ReduceMin", List.of("x"), List.of("b"), ints("axes", -1))
                    .node(
                        "ReduceProd", List.of("x"), List.of("c"), ints("axes", 2), i("keepdims", 0))
                    .node("Unsqueeze", List.of("c"), List.of("c1"), ints("axes", 2))
                    .node("Concat", List.of("a", "b", "c1"), List.of("y"), i("axis", 2))
                    .output("y", "N", 3, 3),
                random(rng, 2, 3, 4)));
    CASES.put(
        "reduceMaxMinProdWithAxesInputs",
        () ->
            one(
                new OnnxBuilder(18)
                    .input("x", "N", 3, 4)
                    .int64("last", new long[] {2}, 1)
                    .node("ReduceMax", List.of("x", "last"), List.of("a"), i("keepdims", 0))
                    .node("ReduceMin", List.of("x", "last"), List.of("b"), i("keepdims", 0))
                    .node("ReduceProd", List.of("x", "last"), List.of("c"), i("keepdims", 0))
                    .node("Sum", List.of("a", "b", "c"), List.of("y"))
                    .output("y", "N", 3),
                random(rng, 2, 3, 4)));

    CASES.put(
        "depthToSpaceBothModes",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 8, 2, 3)
                    .node("DepthToSpace", List.of("x"), List.of("d"), i("blocksize", 2))
                    .node(
                        "DepthToSpace",
                        List.of("x"),
                        List.of("c"),
                        i("blocksize", 2),
                        s("mode", "CRD"))
                    .node("Sub", List.of("d", "c"), List.of("y"))
                    .output("y", "N", 2, 4, 6),
                random(rng, 2, 8, 2, 3)));
    CASES.put(
        "splitByAttributeAndIntoEqualParts",
        () ->
            one(
                new OnnxBuilder(11)
                    .input("x", "N", 6, 2)
                    .node(
                        "Split",
                        List.of("x"),
                        List.of("a", "b", "c"),
                        i("axis", 1),
                        ints("split", 1, 2, 3))
                    .node("Split", List.of("x"), List.of("p", "q"), i("axis", -2))
                    .node("Concat", List.of("c", "a", "b"), List.of("y"), i("axis", 1))
                    .node("Sub", List.of("p", "q"), List.of("z"))
                    .output("y", "N", 6, 2)
                    .output("z", "N", 3, 2),
                random(rng, 2, 6, 2)));
    CASES.put(
        "splitByInputAndByNumOutputs",
        () ->
            one(
                new OnnxBuilder(18)
                    .input("x", "N", 7)
                    .int64("parts", new long[] {4, 3}, 2)
                    .node("Split", List.of("x", "parts"), List.of("a", "b"), i("axis", 1))
                    .node(
                        "Split",
                        List.of("x"),
                        List.of("p", "q", "r"),
                        i("axis", 1),
                        i("num_outputs", 3))
                    .node("Concat", List.of("r", "b", "q", "a", "p"), List.of("y"), i("axis", 1))
                    .output("y", "N", 14),
                random(rng, 2, 7)));
    CASES.put(
        "gatherOneIndexAndFromAConstantOfRankTwo",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 3, 4)
                    .random("table", rng, 1, 3, 4)
                    .int64("one", new long[] {1})
                    .int64("rows", new long[] {2, 0}, 2)
                    .node("Gather", List.of("x", "one"), List.of("g"), i("axis", 1))
                    .node("Gather", List.of("table", "rows"), List.of("t"), i("axis", 0))
                    .node("Gather", List.of("table", "rows"), List.of("t1"), i("axis", 1))
                    .node("Gather", List.of("t", "one"), List.of("t0"), i("axis", 0))
                    .node("Add", List.of("g", "t0"), List.of("y"))
                    .node("Gather", List.of("x", "rows"), List.of("z0"), i("axis", 2))
                    .node("Mul", List.of("z0", "t1"), List.of("z"))
                    .output("y", "N", 4)
                    .output("z", "N", 3, 2),
                random(rng, 2, 3, 4)));

    CASES.put(
        "tileAndExpand",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 1, 3)
                    .random("row", rng, 1, 3)
                    .int64("reps", new long[] {1, 2, 1}, 3)
                    .int64("to", new long[] {2, 1}, 2)
                    .int64("plane", new long[] {2, 3}, 2)
                    .node("Tile", List.of("x", "reps"), List.of("t"))
                    .node("Expand", List.of("x", "to"), List.of("e"))
                    .node("Expand", List.of("row", "plane"), List.of("r"))
                    .node("Mul", List.of("t", "e"), List.of("te"))
                    .node("Add", List.of("te", "r"), List.of("y"))
                    .output("y", "N", 2, 3),
                random(rng, 2, 1, 3)));
    CASES.put(
        "padConstantReflectAndEdge",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 2, 4, 5)
                    .int64("uneven", new long[] {0, 0, 1, 2, 0, 0, 2, 1}, 8)
                    .int64("even", new long[] {0, 0, 1, 2, 0, 0, 1, 2}, 8)
                    .initializer("half", new float[] {0.5f}, new long[0])
                    .node("Pad", List.of("x", "uneven", "half"), List.of("c"))
                    .node("Pad", List.of("x", "even"), List.of("r"), s("mode", "reflect"))
                    .node("Pad", List.of("x", "even"), List.of("e"), s("mode", "edge"))
                    .node("Sub", List.of("r", "e"), List.of("re"))
                    .output("c", "N", 2, 7, 8)
                    .output("re", "N", 2, 6, 9),
                random(rng, 2, 2, 4, 5)));
    CASES.put(
        "padByAttributesAndByAxesOnVolumes",
        () ->
            one(
                new OnnxBuilder(18)
                    .input("x", "N", 1, 2, 3, 3)
                    .int64("pads", new long[] {1, 1, 0, 2}, 4)
                    .int64("axes", new long[] {3, -1}, 2)
                    .node("Pad", List.of("x", "pads", "", "axes"), List.of("y"))
                    .output("y", "N", 1, 2, 4, 6),
                random(rng, 2, 1, 2, 3, 3)));
    CASES.put(
        "padOpset6Attributes",
        () ->
            one(
                new OnnxBuilder(6)
                    .input("x", "N", 1, 3, 3)
                    .node(
                        "Pad",
                        List.of("x"),
                        List.of("y"),
                        ints("pads", 0, 0, 2, 1, 0, 0, 0, 1),
                        f("value", -1f))
                    .output("y", "N", 1, 5, 5),
                random(rng, 2, 1, 3, 3)));
    CASES.put(
        "instanceNormalization",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 3, 4, 5)
                    .random("g", rng, 0.5, 3)
                    .random("b", rng, 0.5, 3)
                    .node(
                        "InstanceNormalization",
                        List.of("x", "g", "b"),
                        List.of("y"),
                        f("epsilon", 1e-4f))
                    .output("y", "N", 3, 4, 5),
                random(rng, 2, 3, 4, 5)));

    CASES.put(
        "conv3dAndPooling3d",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 2, 5, 6, 6)
                    .random("w", rng, 0.3, 3, 2, 3, 3, 3)
                    .random("b", rng, 0.1, 3)
                    .node("Conv", List.of("x", "w", "b"), List.of("c"), s("auto_pad", "SAME_UPPER"))
                    .node(
                        "MaxPool",
                        List.of("c"),
                        List.of("m"),
                        ints("kernel_shape", 2, 2, 2),
                        ints("strides", 1, 2, 2))
                    .node(
                        "AveragePool",
                        List.of("m"),
                        List.of("y"),
                        ints("kernel_shape", 3, 3, 3),
                        ints("pads", 1, 1, 1, 1, 1, 1),
                        i("count_include_pad", 1))
                    .output("y", "N", 3, 4, 3, 3),
                random(rng, 2, 2, 5, 6, 6)));
    CASES.put(
        "conv3dStridedAndPooling1d",
        () ->
            new Case(
                new OnnxBuilder(11)
                    .input("x", "N", 1, 4, 4, 4)
                    .input("s", "N", 2, 9)
                    .random("w", rng, 0.3, 2, 1, 2, 2, 2)
                    .node(
                        "Conv",
                        List.of("x", "w"),
                        List.of("y"),
                        ints("strides", 2, 2, 2),
                        ints("dilations", 1, 1, 1))
                    .node(
                        "MaxPool",
                        List.of("s"),
                        List.of("z"),
                        ints("kernel_shape", 3),
                        ints("strides", 2),
                        s("auto_pad", "SAME_UPPER"))
                    .output("y", "N", 2, 2, 2, 2)
                    .output("z", "N", 2, 5),
                Map.of("x", random(rng, 2, 1, 4, 4, 4), "s", random(rng, 2, 2, 9))));

    CASES.put(
        "lstmTimeMajorOfAFixedBatch",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", 5, 2, 3)
                    .random("w", rng, 0.4, 1, 16, 3)
                    .random("r", rng, 0.4, 1, 16, 4)
                    .random("b", rng, 0.2, 1, 32)
                    .node("LSTM", List.of("x", "w", "r", "b"), List.of("y"), i("hidden_size", 4))
                    .output("y", 5, 1, 2, 4),
                random(rng, 5, 2, 3)));
    CASES.put(
        "gruBidirectionalBatchFirstAgainstItsTimeMajorPeer",
        () -> {
          long seed = rng.nextLong();
          List<dev.kiln.onnx.proto.Onnx.AttributeProto> gru =
              List.of(
                  i("hidden_size", 4),
                  i("linear_before_reset", 1),
                  s("direction", "bidirectional"));
          OnnxBuilder batchFirst =
              weights(new OnnxBuilder(14).input("x", "N", 5, 3), new Random(seed))
                  .node(
                      "GRU",
                      List.of("x", "w", "r", "b"),
                      List.of("y", "yh"),
                      concat(gru, i("layout", 1)))
                  .output("y", "N", 5, 2, 4)
                  .output("yh", "N", 2, 4);
          OnnxBuilder timeMajor =
              weights(new OnnxBuilder(14).input("x", "N", 5, 3), new Random(seed))
                  .node("Transpose", List.of("x"), List.of("t"), ints("perm", 1, 0, 2))
                  .node(
                      "GRU",
                      List.of("t", "w", "r", "b"),
                      List.of("s", "sh"),
                      gru.toArray(dev.kiln.onnx.proto.Onnx.AttributeProto[]::new))
                  .node("Transpose", List.of("s"), List.of("y"), ints("perm", 2, 0, 1, 3))
                  .node("Transpose", List.of("sh"), List.of("yh"), ints("perm", 1, 0, 2))
                  .output("y", "N", 5, 2, 4)
                  .output("yh", "N", 2, 4);
          return new Case(batchFirst, Map.of("x", random(rng, 2, 5, 3)), timeMajor);
        });
    CASES.put(
        "rnnTimeMajorOfTheBatchAndBidirectionalLstm",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", 4, "N", 3)
                    .random("w", rng, 0.4, 1, 5, 3)
                    .random("r", rng, 0.4, 1, 5, 5)
                    .random("lw", rng, 0.4, 2, 8, 3)
                    .random("lr", rng, 0.4, 2, 8, 2)
                    .node(
                        "RNN",
                        List.of("x", "w", "r"),
                        List.of("y"),
                        i("hidden_size", 5),
                        OnnxBuilder.strings("activations", "Relu"))
                    .node(
                        "LSTM",
                        List.of("x", "lw", "lr"),
                        List.of("z", "zh", ""),
                        i("hidden_size", 2),
                        s("direction", "bidirectional"))
                    .output("y", 4, 1, "N", 5)
                    .output("z", 4, 2, "N", 2)
                    .output("zh", 2, "N", 2),
                random(rng, 4, 2, 3)));

    CASES.put(
        "powByATensorExponent",
        () ->
            one(
                new OnnxBuilder(13)
                    .input("x", "N", 2, 3)
                    .random("e", rng, 1, 3)
                    .node("Sigmoid", List.of("x"), List.of("a"))
                    .node("Exp", List.of("e"), List.of("base"))
                    .node("Pow", List.of("a", "e"), List.of("p"))
                    .node("Pow", List.of("base", "x"), List.of("q"))
                    .node("Add", List.of("p", "q"), List.of("y"))
                    .output("y", "N", 2, 3),
                random(rng, 2, 2, 3)));
  }

  /** The GRU weights of the batch-first case, [2 directions, 3 gates · 4 units, 3 or 4]. */
  private static OnnxBuilder weights(OnnxBuilder b, Random rng) {
    return b.random("w", rng, 0.4, 2, 12, 3)
        .random("r", rng, 0.4, 2, 12, 4)
        .random("b", rng, 0.2, 2, 24);
  }

  private static dev.kiln.onnx.proto.Onnx.AttributeProto[] concat(
      List<dev.kiln.onnx.proto.Onnx.AttributeProto> some,
      dev.kiln.onnx.proto.Onnx.AttributeProto more) {
    List<dev.kiln.onnx.proto.Onnx.AttributeProto> all = new java.util.ArrayList<>(some);
    all.add(more);
    return all.toArray(dev.kiln.onnx.proto.Onnx.AttributeProto[]::new);
  }

  /** Every check, by name. */
  private static Map<String, Consumer<NDManager>> checks() {
    Map<String, Consumer<NDManager>> checks = new LinkedHashMap<>();
    String only = System.getProperty("kiln.onnxCase", "");
    for (Map.Entry<String, java.util.function.Supplier<Case>> e : CASES.entrySet()) {
      if (!e.getKey().contains(only)) {
        continue;
      }
      checks.put(
          e.getKey(),
          nd -> {
            Case c = e.getValue().get();
            try {
              Path dir = Files.createTempDirectory("onnx");
              Path file = c.model().write(dir.resolve(e.getKey() + ".onnx"));
              Path peer =
                  c.peer() == null ? file : c.peer().write(dir.resolve(e.getKey() + "-peer.onnx"));
              OnnxPeer.agree(peer, file, c.inputs(), nd, e.getKey());
            } catch (IOException x) {
              throw new UncheckedIOException(x);
            } catch (ai.onnxruntime.OrtException x) {
              throw new AssertionError(e.getKey() + ": ONNX Runtime rejects the file: " + x, x);
            }
          });
    }
    return checks;
  }

  /**
   * The cases of recurrent layers, which Kiln runs on oneDNN's RNN kernel only: the runtime refuses
   * them with oneDNN off (MXNet 1.9.1's native kernel, apache/mxnet#17898).
   */
  private static final java.util.Set<String> ONE_DNN_ONLY =
      java.util.Set.of(
          "gruBidirectionalBatchFirstAgainstItsTimeMajorPeer",
          "lstmTimeMajorOfAFixedBatch",
          "rnnTimeMajorOfTheBatchAndBidirectionalLstm");

  /** Runs every check and prints {@code PASSED <name>} after each (with oneDNN off, in a child). */
  public static void main(String[] args) {
    try (NDManager nd = NDManager.newBaseManager()) {
      for (Map.Entry<String, Consumer<NDManager>> c : checks().entrySet()) {
        if ("0".equals(System.getenv("MXNET_MKLDNN_ENABLED"))
            && ONE_DNN_ONLY.contains(c.getKey())) {
          continue;
        }
        c.getValue().accept(nd);
        System.out.println("PASSED " + c.getKey());
      }
    }
  }

  @Test
  void everyOperatorAgreesWithOnnxRuntime() {
    try (NDManager nd = NDManager.newBaseManager()) {
      for (Consumer<NDManager> c : checks().values()) {
        c.accept(nd);
      }
    }
  }

  @Test
  void withoutOneDnnTheyAgreeToo() throws IOException, InterruptedException {
    TestJvm.Outcome child =
        TestJvm.run(OnnxAgreementTest.class, Map.of("MXNET_MKLDNN_ENABLED", "0"), 300);
    String out = child.output();
    assertTrue(child.finished(), out);
    assertEquals(0, child.exitValue(), out);
    assertEquals(
        CASES.size() - ONE_DNN_ONLY.size(),
        Arrays.stream(out.split("\n")).filter(l -> l.startsWith("PASSED")).count(),
        out);
  }
}
