package dev.kiln.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Writes the source of a fully convolutional image model for timing the annotation processor with
 * free dimensions: the same model twice, once with {@code @FreeDim} constants {@code H} and {@code
 * W} and once with both fixed at {@link #SIZE}, so that the processor's extra time for free
 * dimensions is the difference. The model repeats a residual block of ten nodes ({@code @Conv2D}
 * 3x3 padded, {@code @BatchNorm}, {@code @Activation}, {@code @Conv2D}, {@code @Add} of the block's
 * input, {@code @Activation}, an unpadded {@code @Conv2D} 3x3 that shrinks the image by 2, a 1x1
 * {@code @Conv2D} beside it, their {@code @Concat} and a 1x1 {@code @Conv2D} back to the block's
 * channels); every tenth block ends with a 2x2 {@code @MaxPool} too, so the sizes become
 * expressions with floor quotients ({@code (H - 20) / 2 - 2}) and the convolutions' requirements
 * pile up.
 */
final class FreeDimModelSource {
  /** The package of the generated interfaces. */
  static final String PACKAGE = "dev.kiln.bench.generated";

  /** The fixed height and width of the constant model, and the free model's least size. */
  static final int SIZE = 1024;

  private static final int CHANNELS = 8;

  private FreeDimModelSource() {}

  /** The interface's simple name for {@code nodes} nodes, free or fixed. */
  static String name(int nodes, boolean free) {
    return (free ? "FreeConv" : "FixedConv") + nodes;
  }

  /**
   * The source of {@code @Model interface FreeConv<nodes>} ({@code free}) or {@code
   * FixedConv<nodes>}: an input {@code [BATCH, 8, H, W]} and {@code nodes - 1} layers, the last
   * block cut short where the count ends.
   */
  static String source(int nodes, boolean free) {
    if (nodes < 2) {
      throw new IllegalArgumentException("a model needs an input and at least one layer");
    }
    StringBuilder s = new StringBuilder();
    s.append("package ").append(PACKAGE).append(";\n\n");
    s.append("import static dev.kiln.annotations.Dim.BATCH;\n\n");
    for (String a :
        new String[] {
          "Act",
          "Activation",
          "Add",
          "BatchNorm",
          "Concat",
          "Conv2D",
          "FreeDim",
          "Input",
          "MaxPool",
          "Model",
          "Sym"
        }) {
      if (free || !a.equals("FreeDim")) {
        s.append("import dev.kiln.annotations.").append(a).append(";\n");
      }
    }
    s.append("\n/** A fully convolutional model of ")
        .append(nodes)
        .append(" nodes, generated for a");
    s.append(" benchmark. */\n@Model\npublic interface ").append(name(nodes, free)).append(" {\n");
    if (free) {
      s.append("  @FreeDim(min = ").append(SIZE).append(")\n  int H = -10;\n\n");
      s.append("  @FreeDim(min = ").append(SIZE).append(")\n  int W = -11;\n\n");
    } else {
      s.append("  int H = ").append(SIZE).append(";\n\n  int W = ").append(SIZE).append(";\n\n");
    }
    s.append("  @Input(shape = {BATCH, ").append(CHANNELS).append(", H, W})\n  Sym n0();\n");
    int block = 0;
    String in = "n0";
    int n = 1;
    while (n < nodes) {
      List<String[]> layers =
          new ArrayList<>(
              List.of(
                  new String[] {"@Conv2D(filters = " + CHANNELS + ", kernel = 3, pad = 1)", "x"},
                  new String[] {"@BatchNorm", "p"},
                  new String[] {"@Activation(Act.RELU)", "p"},
                  new String[] {"@Conv2D(filters = " + CHANNELS + ", kernel = 3, pad = 1)", "p"},
                  new String[] {"@Add", "p,x"},
                  new String[] {"@Activation(Act.RELU)", "p"},
                  new String[] {"@Conv2D(filters = " + CHANNELS + ", kernel = 3)", "p"},
                  new String[] {"@Conv2D(filters = " + CHANNELS + ", kernel = 1)", "p"},
                  new String[] {"@Concat(axis = 1)", "q,p"},
                  new String[] {"@Conv2D(filters = " + CHANNELS + ", kernel = 1)", "p"}));
      if (block % 10 == 9) {
        layers.add(new String[] {"@MaxPool(kernel = 2, stride = 2)", "p"});
      }
      int first = n;
      for (String[] layer : layers) {
        if (n >= nodes) {
          break;
        }
        StringBuilder args = new StringBuilder();
        for (String from : layer[1].split(",")) {
          String node =
              switch (from) {
                case "x" -> in;
                case "p" -> "n" + (n - 1);
                default -> "n" + (n - 2);
              };
          args.append(args.length() == 0 ? "" : ", ").append("Sym ").append(node);
        }
        s.append("\n  ").append(layer[0]).append("\n  Sym n").append(n).append('(');
        s.append(args).append(");\n");
        n++;
      }
      in = "n" + (n - 1);
      block += n - first == layers.size() ? 1 : 0;
    }
    s.append("}\n");
    return s.toString();
  }
}
