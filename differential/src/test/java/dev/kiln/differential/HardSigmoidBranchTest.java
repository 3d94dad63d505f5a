package dev.kiln.differential;

import dev.kiln.onnx.OnnxBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A regression the random ONNX models found (seed 15): a hard sigmoid whose input another node
 * reads too (a residual branch, {@code x + c -> HardSigmoid -> Add(h, x + c)}). MXNet 1.9.1's own
 * {@code hard_sigmoid} gave a third of the true gradient there, with oneDNN on and off, so Kiln
 * computes the hard sigmoid as {@code _mul_scalar}, {@code _plus_scalar} and {@code clip} ({@code
 * MathOp}); these models, with the constant on either side of the add, pass every check of the
 * suite, the gradients against finite differences among them.
 */
class HardSigmoidBranchTest {
  private static ModelCase model(String name, boolean constantFirst) {
    Random rng = new Random(3);
    OnnxBuilder b =
        new OnnxBuilder(13)
            .input("x", "N", 2, 4, 7)
            .random("c", rng, 0.5, 1, 2, 1, 1)
            .random("w", rng, 0.3, 2, 3)
            .node("Add", constantFirst ? List.of("c", "x") : List.of("x", "c"), List.of("a"))
            .node("HardSigmoid", List.of("a"), List.of("h"))
            .node("Add", List.of("h", "a"), List.of("r"))
            .node("GlobalAveragePool", List.of("r"), List.of("g"))
            .node("Flatten", List.of("g"), List.of("f"))
            .node("MatMul", List.of("f", "w"), List.of("y"))
            .output("y", "N", 3);
    return OnnxModelGenerator.importing(
        name,
        5,
        true,
        new long[] {2, 4, 7},
        b.build().toByteArray(),
        List.of("HardSigmoid", "AddBranches"));
  }

  private static void check(ModelCase c) {
    Path work = DifferentialTest.workDir().resolve("hard-sigmoid");
    new ModelRun(c, work.resolve(c.name()), work.resolve("classes")).runAll();
  }

  @Test
  void aHardSigmoidOnABranchHasTheTrueGradient() {
    check(model("HardSigmoidBranch", false));
  }

  @Test
  void withTheConstantFirstToo() {
    check(model("HardSigmoidBranchConstantFirst", true));
  }
}
