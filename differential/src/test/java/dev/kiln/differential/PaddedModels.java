package dev.kiln.differential;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random convolutional classifiers for {@link PaddedTrainingTest}: two 3x3 convolutions (each
 * optionally followed by a batch norm, then an activation and a 2x2 pooling), optionally a flatten,
 * a dense layer with tanh and a dense layer of class scores under a softmax, with filter counts
 * drawn mostly off the multiples of 16, so that {@code ChannelPadding.training} pads one or both
 * convolutions.
 */
final class PaddedModels {
  private PaddedModels() {}

  private static final int[] FIRST = {6, 10, 12, 16, 20, 24, 27, 32, 40};
  private static final int[] SECOND = {9, 16, 18, 30, 33, 48, 50};
  private static final String[] SMOOTH = {"TANH", "SIGMOID", "SOFTRELU"};

  /**
   * A drawn model and what the test needs to feed it.
   *
   * @param model the sources
   * @param features what was drawn, for messages
   * @param smooth whether every activation and pooling is smooth (no ReLU, no max pooling)
   * @param padded the convolutions padding should apply to, in order
   * @param channels the input's channels
   * @param size the input's height and width
   * @param classes the number of classes
   */
  record Drawn(
      ModelCase model,
      String features,
      boolean smooth,
      List<String> padded,
      int channels,
      int size,
      int classes) {
    /** {@code n} random examples. */
    float[] batch(Random r, int n) {
      float[] x = new float[n * channels * size * size];
      for (int i = 0; i < x.length; i++) {
        x[i] = r.nextFloat();
      }
      return x;
    }

    /** {@code n} random class indices. */
    int[] labels(Random r, int n) {
      int[] y = new int[n];
      for (int i = 0; i < n; i++) {
        y[i] = r.nextInt(classes);
      }
      return y;
    }
  }

  /** The model of {@code seed}: every third seed has a ReLU or a max pooling. */
  static Drawn draw(long seed) {
    Random r = new Random(seed * 7919);
    boolean smooth = seed % 3 != 0;
    int channels = r.nextBoolean() ? 1 : 3;
    int size = r.nextBoolean() ? 12 : 16;
    int classes = 3 + r.nextInt(8);
    int units = 8 + r.nextInt(25);
    int[] filters = {FIRST[r.nextInt(FIRST.length)], SECOND[r.nextInt(SECOND.length)]};
    String name = "Padded" + seed;
    StringBuilder s = new StringBuilder();
    s.append("package ").append(ModelGenerator.PACKAGE).append(";\n\n");
    s.append("import static dev.kiln.annotations.Dim.BATCH;\n\n");
    for (String a :
        List.of(
            "Act",
            "Activation",
            "AvgPool",
            "BatchNorm",
            "Conv2D",
            "Dense",
            "Flatten",
            "Input",
            "MaxPool",
            "Model",
            "Softmax",
            "Sym")) {
      s.append("import dev.kiln.annotations.").append(a).append(";\n");
    }
    s.append("\n@Model(classifier = true)\npublic interface ").append(name).append(" {\n");
    s.append("  @Input(shape = {BATCH, ")
        .append(channels)
        .append(", ")
        .append(size)
        .append(", ")
        .append(size)
        .append("})\n  Sym image();\n");
    List<String> features = new ArrayList<>();
    List<String> padded = new ArrayList<>();
    String previous = "image";
    for (int i = 1; i <= 2; i++) {
      boolean norm = r.nextBoolean();
      int f = filters[i - 1];
      String conv = "conv" + i;
      s.append("  @Conv2D(filters = ")
          .append(f)
          .append(", kernel = 3, pad = 1")
          .append(norm ? ", noBias = true" : "")
          .append(")\n  Sym ")
          .append(conv)
          .append("(Sym ")
          .append(previous)
          .append(");\n");
      previous = conv;
      if (norm) {
        s.append("  @BatchNorm\n  Sym bn")
            .append(i)
            .append("(Sym ")
            .append(previous)
            .append(");\n");
        previous = "bn" + i;
      }
      String act = smooth || r.nextBoolean() ? SMOOTH[r.nextInt(SMOOTH.length)] : "RELU";
      s.append("  @Activation(Act.")
          .append(act)
          .append(")\n  Sym act")
          .append(i)
          .append("(Sym ")
          .append(previous)
          .append(");\n");
      previous = "act" + i;
      boolean max = !smooth && r.nextBoolean();
      s.append(max ? "  @MaxPool(kernel = 2)\n" : "  @AvgPool(kernel = 2)\n")
          .append("  Sym pool")
          .append(i)
          .append("(Sym ")
          .append(previous)
          .append(");\n");
      previous = "pool" + i;
      features.add(conv + "=" + f + (norm ? "+bn" : "") + "+" + act + (max ? "+max" : "+avg"));
      // docs/training.md: filters not a multiple of 16, and at least 8 (padding at most doubles).
      if (f % 16 != 0 && f >= 8) {
        padded.add(conv);
      }
    }
    if (r.nextBoolean()) {
      s.append("  @Flatten\n  Sym flat(Sym ").append(previous).append(");\n");
      previous = "flat";
      features.add("flatten");
    }
    s.append("  @Dense(units = ")
        .append(units)
        .append(", activation = Act.TANH)\n  Sym hidden(Sym ")
        .append(previous)
        .append(");\n");
    s.append("  @Dense(units = ").append(classes).append(")\n  Sym logits(Sym hidden);\n");
    s.append("  @Softmax\n  Sym probs(Sym logits);\n}\n");
    features.add("input=" + channels + "x" + size + "x" + size);
    ModelCase c =
        new ModelCase(
            name,
            ModelGenerator.PACKAGE + "." + name,
            seed,
            false,
            "xavier",
            Map.of(ModelGenerator.PACKAGE + "." + name, s.toString()),
            features);
    return new Drawn(c, features.toString(), smooth, padded, channels, size, classes);
  }
}
