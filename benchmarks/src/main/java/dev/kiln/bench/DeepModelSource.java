package dev.kiln.bench;

/**
 * Writes the source of a long chain model for timing the annotation processor: an {@code @Input}
 * followed by alternating {@code @Dense} and {@code @Activation} nodes, each reading the one before
 * it.
 */
final class DeepModelSource {
  /** The package of the generated interface. */
  static final String PACKAGE = "dev.kiln.bench.generated";

  private DeepModelSource() {}

  /** The interface's simple name for a chain of {@code nodes} nodes. */
  static String name(int nodes) {
    return "Chain" + nodes;
  }

  /**
   * The source of {@code @Model interface Chain<nodes>}: node {@code n0} is the input, odd nodes
   * are {@code @Dense(units = width)}, even ones {@code @Activation(Act.RELU)}.
   */
  static String source(int nodes, int width) {
    if (nodes < 2) {
      throw new IllegalArgumentException("a chain needs an input and at least one layer");
    }
    StringBuilder s = new StringBuilder();
    s.append("package ").append(PACKAGE).append(";\n\n");
    s.append("import static dev.kiln.annotations.Dim.BATCH;\n\n");
    s.append("import dev.kiln.annotations.Act;\n");
    s.append("import dev.kiln.annotations.Activation;\n");
    s.append("import dev.kiln.annotations.Dense;\n");
    s.append("import dev.kiln.annotations.Input;\n");
    s.append("import dev.kiln.annotations.Model;\n");
    s.append("import dev.kiln.annotations.Sym;\n\n");
    s.append("/** A chain of ").append(nodes).append(" nodes, generated for a benchmark. */\n");
    s.append("@Model\n");
    s.append("public interface ").append(name(nodes)).append(" {\n");
    s.append("  @Input(shape = {BATCH, ").append(width).append("})\n");
    s.append("  Sym n0();\n");
    for (int i = 1; i < nodes; i++) {
      s.append('\n');
      s.append(i % 2 == 1 ? "  @Dense(units = " + width + ")\n" : "  @Activation(Act.RELU)\n");
      s.append("  Sym n").append(i).append("(Sym n").append(i - 1).append(");\n");
    }
    s.append("}\n");
    return s.toString();
  }
}
