package dev.kiln.differential;

import static dev.kiln.onnx.OnnxBuilder.f;
import static dev.kiln.onnx.OnnxBuilder.i;
import static dev.kiln.onnx.OnnxBuilder.ints;

import dev.kiln.onnx.OnnxBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random ONNX models, one per seed, imported whole by a {@code @Model} interface (package {@value
 * ModelGenerator#PACKAGE}, named {@code Onnx<seed>}): an image input {@code x} of {@code [N, C, H,
 * W]} through 2 to 6 image operators (Conv with or without bias, padding and stride,
 * BatchNormalization, InstanceNormalization, the activations (HardSigmoid, Erf and Abs among them),
 * MaxPool and AveragePool, Pad (constant, edge, reflect), DepthToSpace (DCR, CRD), Add and Mul of a
 * per-channel constant or of two branches, Concat of two branches), then Flatten or
 * GlobalAveragePool and 1 to 3 row operators (Gemm with B transposed or not, MatMul, activations,
 * Softmax or LogSoftmax), in an operator set drawn from 11, 13, 15 and 17. The file is a resource
 * of the model, and the case gets the suite's usual checks plus check 10: ONNX Runtime on the same
 * file.
 */
final class OnnxModelGenerator {
  private static final int[] OPSETS = {11, 13, 15, 17};

  private final Random rng;
  private final OnnxBuilder b;
  private final List<String> features = new ArrayList<>();
  private int names;
  private String x;
  private long[] shape;

  private OnnxModelGenerator(long seed) {
    this.rng = new Random(seed * 0x9E3779B97F4A7C15L + 11);
    int opset = OPSETS[rng.nextInt(OPSETS.length)];
    features.add("opset" + opset);
    this.b = new OnnxBuilder(opset);
  }

  /** The model of {@code seed}. */
  static ModelCase generate(long seed) {
    return new OnnxModelGenerator(seed).model(seed);
  }

  private String fresh(String op) {
    return "/" + op + "_" + names++ + "_output_0";
  }

  private String param(String name, double s, long... dims) {
    String p = name + "_" + names++;
    b.random(p, rng, s, dims);
    return p;
  }

  private ModelCase model(long seed) {
    long c = 1 + rng.nextInt(3);
    long h = 6 + rng.nextInt(7);
    long w = 6 + rng.nextInt(7);
    b.input("x", "N", c, h, w);
    x = "x";
    shape = new long[] {-1, c, h, w};
    int imageOps = 2 + rng.nextInt(5);
    for (int k = 0; k < imageOps; k++) {
      imageOp();
    }
    if (rng.nextBoolean()) {
      emit("GlobalAveragePool", List.of(x), new long[] {-1, shape[1], 1, 1});
      features.add("GlobalAveragePool");
    }
    emit("Flatten", List.of(x), new long[] {-1, shape[1] * shape[2] * shape[3]});
    int rowOps = 1 + rng.nextInt(3);
    for (int k = 0; k < rowOps; k++) {
      rowOp(k == rowOps - 1);
    }
    b.output(x, "N", shape[1]);
    return importing(
        "Onnx" + seed, seed, false, new long[] {c, h, w}, b.build().toByteArray(), features);
  }

  /**
   * The model {@code name} that imports the ONNX model {@code onnx} whole, from its one input
   * {@code x} of {@code [BATCH, example...]} ({@code @Imported(onnx = "<name>.onnx") Sym y(Sym
   * x)}), the file a class-path resource beside it; {@code features} name what it holds.
   */
  static ModelCase importing(
      String name,
      long seed,
      boolean regression,
      long[] example,
      byte[] onnx,
      List<String> features) {
    String file = name.toLowerCase(java.util.Locale.ROOT) + ".onnx";
    StringBuilder dims = new StringBuilder("BATCH");
    for (long d : example) {
      dims.append(", ").append(d);
    }
    String source =
        "package "
            + ModelGenerator.PACKAGE
            + ";\n\n"
            + "import static dev.kiln.annotations.Dim.BATCH;\n\n"
            + "import dev.kiln.annotations.*;\n\n"
            + "/** An ONNX model ("
            + String.join(", ", features)
            + "), imported whole. */\n"
            + "@Model\n"
            + "public interface "
            + name
            + " {\n"
            + "  @Input(shape = {"
            + dims
            + "})\n"
            + "  Sym x();\n\n"
            + "  @Imported(onnx = \""
            + file
            + "\")\n"
            + "  Sym y(Sym x);\n"
            + "}\n";
    String qualified = ModelGenerator.PACKAGE + "." + name;
    return new ModelCase(
        name,
        qualified,
        seed,
        regression,
        "xavier",
        Map.of(qualified, source),
        features,
        Map.of(ModelGenerator.PACKAGE + "/" + file, onnx));
  }

  private void emit(
      String op,
      List<String> inputs,
      long[] outShape,
      dev.kiln.onnx.proto.Onnx.AttributeProto... attributes) {
    String out = fresh(op);
    b.node(op, inputs, List.of(out), attributes);
    x = out;
    shape = outShape;
  }

  private void activation() {
    String[] ops = {
      "Relu", "Sigmoid", "Tanh", "LeakyRelu", "Elu", "Softsign", "HardSigmoid", "Erf", "Abs"
    };
    String op = ops[rng.nextInt(ops.length)];
    features.add(op);
    emit(op, List.of(x), shape);
  }

  private void imageOp() {
    long c = shape[1];
    long h = shape[2];
    long w = shape[3];
    switch (rng.nextInt(10)) {
      case 0, 1 -> {
        long filters = 1 + rng.nextInt(8);
        int k = 1 + rng.nextInt(3);
        int pad = rng.nextInt(2);
        int stride = h > 6 && w > 6 ? 1 + rng.nextInt(2) : 1;
        if (h + 2 * pad < k || w + 2 * pad < k) {
          activation();
          return;
        }
        String weight = param("conv.weight", 0.4, filters, c, k, k);
        List<String> in = new ArrayList<>(List.of(x, weight));
        boolean bias = rng.nextBoolean();
        if (bias) {
          in.add(param("conv.bias", 0.2, filters));
        }
        features.add("Conv" + k + "x" + k + (pad > 0 ? "pad" : "") + (stride > 1 ? "stride" : ""));
        emit(
            "Conv",
            in,
            new long[] {
              -1, filters, (h + 2 * pad - k) / stride + 1, (w + 2 * pad - k) / stride + 1
            },
            ints("kernel_shape", k, k),
            ints("pads", pad, pad, pad, pad),
            ints("strides", stride, stride));
      }
      case 2 -> activation();
      case 3 -> {
        if (h < 2 || w < 2) {
          activation();
          return;
        }
        boolean max = rng.nextBoolean();
        features.add(max ? "MaxPool" : "AveragePool");
        emit(
            max ? "MaxPool" : "AveragePool",
            List.of(x),
            new long[] {-1, c, h / 2, w / 2},
            ints("kernel_shape", 2, 2),
            ints("strides", 2, 2));
      }
      case 4 -> {
        float[] var = new float[(int) c];
        for (int i = 0; i < var.length; i++) {
          var[i] = 0.5f + rng.nextFloat();
        }
        String scale = param("bn.weight", 0.3, c);
        String shift = param("bn.bias", 0.3, c);
        String mean = param("bn.running_mean", 0.2, c);
        String v = "bn.running_var_" + names++;
        b.initializer(v, var, c);
        features.add("BatchNormalization");
        emit("BatchNormalization", List.of(x, scale, shift, mean, v), shape, f("epsilon", 1e-3f));
      }
      case 5 -> {
        // x op constant[1, C, 1, 1], broadcast along the batch and the image.
        String op = rng.nextBoolean() ? "Add" : "Mul";
        String k = param("channel", 0.5, 1, c, 1, 1);
        features.add(op + "Constant");
        emit(op, List.of(x, k), shape);
      }
      case 6 -> {
        String scale = param("in.weight", 0.3, c);
        String shift = param("in.bias", 0.3, c);
        features.add("InstanceNormalization");
        emit("InstanceNormalization", List.of(x, scale, shift), shape, f("epsilon", 1e-3f));
      }
      case 7 -> {
        if (h > 14 || w > 14) {
          activation();
          return;
        }
        String[] modes = {"constant", "edge", "reflect"};
        String mode = modes[rng.nextInt(modes.length)];
        String pads = "pads_" + names++;
        b.int64(pads, new long[] {0, 0, 1, 1, 0, 0, 1, 1}, 8);
        features.add("Pad" + mode);
        emit(
            "Pad",
            List.of(x, pads),
            new long[] {-1, c, h + 2, w + 2},
            dev.kiln.onnx.OnnxBuilder.s("mode", mode));
      }
      case 8 -> {
        if (c % 4 != 0 || h > 10 || w > 10) {
          activation();
          return;
        }
        String mode = rng.nextBoolean() ? "DCR" : "CRD";
        features.add("DepthToSpace" + mode);
        emit(
            "DepthToSpace",
            List.of(x),
            new long[] {-1, c / 4, 2 * h, 2 * w},
            i("blocksize", 2),
            dev.kiln.onnx.OnnxBuilder.s("mode", mode));
      }
      default -> {
        // Two branches of the same input, added or concatenated along the channels.
        String in = x;
        long[] s = shape;
        activation();
        String left = x;
        x = in;
        shape = s;
        String right;
        if (rng.nextBoolean()) {
          String weight = param("branch.weight", 0.4, c, c, 1, 1);
          emit("Conv", List.of(in, weight), s, ints("kernel_shape", 1, 1));
          right = x;
        } else {
          right = in;
        }
        if (rng.nextBoolean()) {
          features.add("AddBranches");
          emit("Add", List.of(left, right), s);
        } else {
          features.add("ConcatBranches");
          emit("Concat", List.of(left, right), new long[] {-1, 2 * c, s[2], s[3]}, i("axis", 1));
        }
      }
    }
  }

  private void rowOp(boolean last) {
    long in = shape[1];
    switch (rng.nextInt(last ? 2 : 3)) {
      case 0 -> {
        long units = 2 + rng.nextInt(9);
        boolean transposed = rng.nextBoolean();
        String weight =
            transposed ? param("fc.weight", 0.3, units, in) : param("fc.weight", 0.3, in, units);
        String bias = param("fc.bias", 0.2, units);
        features.add(transposed ? "GemmTransB" : "Gemm");
        emit(
            "Gemm",
            List.of(x, weight, bias),
            new long[] {-1, units},
            i("transB", transposed ? 1 : 0));
      }
      case 1 -> {
        long units = 2 + rng.nextInt(9);
        String weight = param("proj", 0.3, in, units);
        features.add("MatMul");
        emit("MatMul", List.of(x, weight), new long[] {-1, units});
      }
      default -> activation();
    }
    if (last && rng.nextBoolean()) {
      String op = rng.nextBoolean() ? "Softmax" : "LogSoftmax";
      features.add(op);
      emit(op, List.of(x), shape, i("axis", 1));
    }
  }
}
