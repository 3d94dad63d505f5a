package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Compiles six models that between them use every kind of generated code (a dense MLP; a LeNet with
 * convolutions, pooling and batch norm's auxiliary states; a custom layer; several inputs and
 * outputs with a frozen node and no classifier; a custom recurrent cell over a constant number of
 * steps, and one over {@code STEPS}, whose graph is built per number of steps, in a classifier;
 * MTCNN's PNet over free dimensions {@code H} and {@code W}) and compares the generated files with
 * the goldens under {@code src/test/resources/golden}, byte for byte, under javac and ecj. Set
 * {@code KILN_UPDATE_GOLDEN} to any non-empty value to rewrite the goldens from javac's output
 * instead; never edit them by hand.
 */
class GoldenTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden");

  /**
   * A golden model: its sources (the model first) and the package of the generated classes.
   *
   * @param sources resource names
   * @param model the model's qualified name
   * @param others the other models among the sources (a {@code @Block}'s), generated too
   */
  record Golden(List<String> sources, String model, List<String> others) {
    Golden(List<String> sources, String model) {
      this(sources, model, List.of());
    }

    List<String> generated() {
      return List.of(model + "Graph", model + "Model", model + "Exec");
    }

    List<String> allGenerated() {
      List<String> all = new java.util.ArrayList<>(generated());
      for (String o : others) {
        all.addAll(List.of(o + "Graph", o + "Model", o + "Exec"));
      }
      return all;
    }

    @Override
    public String toString() {
      return model.substring(model.lastIndexOf('.') + 1);
    }
  }

  static final List<Golden> GOLDENS =
      List.of(
          new Golden(List.of("good/demo/FashionMlp"), "demo.FashionMlp"),
          new Golden(List.of("good/lenet/LeNet"), "lenet.LeNet"),
          new Golden(List.of("good/custom/AffineNet", "layers/Affine"), "custom.AffineNet"),
          new Golden(List.of("good/heads/TwoHeads"), "heads.TwoHeads"),
          new Golden(List.of("good/loss/Denoiser"), "loss.Denoiser"),
          new Golden(List.of("good/cells/GruNet", "layers/GruCell"), "cells.GruNet"),
          new Golden(List.of("good/cells/AnyStepsNet", "layers/GruCell"), "cells.AnyStepsNet"),
          new Golden(List.of("good/dims/Pnet"), "dims.Pnet"),
          new Golden(
              List.of("good/blocks/TinyTransformer", "good/blocks/EncoderBlock"),
              "blocks.TinyTransformer",
              List.of("blocks.EncoderBlock")));

  static Stream<Arguments> goldens() {
    return Stream.of(TestCompiler.values())
        .flatMap(c -> GOLDENS.stream().map(g -> Arguments.of(c, g)));
  }

  private static boolean updating() {
    String value = System.getenv("KILN_UPDATE_GOLDEN");
    return value != null && !value.isEmpty();
  }

  @ParameterizedTest(name = "[{0}] {1}")
  @MethodSource("goldens")
  void generatedFilesMatchTheGoldensAndCompileWithoutWarnings(TestCompiler compiler, Golden golden)
      throws IOException {
    Result r = compiler.compile(golden.sources().toArray(String[]::new));
    assertTrue(r.clean(), r.diagnostics().toString());
    assertEquals(
        new java.util.TreeSet<>(golden.allGenerated()),
        new java.util.TreeSet<>(r.generated().keySet()));
    for (String name : golden.generated()) {
      Path file = GOLDEN.resolve(name.replace('.', '/') + ".java");
      String actual = r.source(name);
      if (updating() && compiler == TestCompiler.JAVAC) {
        Files.createDirectories(file.getParent());
        Files.writeString(file, actual, StandardCharsets.UTF_8);
      }
      assertEquals(Files.readString(file, StandardCharsets.UTF_8), actual, name);
    }
  }

  @ParameterizedTest(name = "[{0}] {1}")
  @MethodSource("goldens")
  void compilingTwiceGivesTheSameBytes(TestCompiler compiler, Golden golden) {
    String[] sources = golden.sources().toArray(String[]::new);
    assertEquals(compiler.compile(sources).generated(), compiler.compile(sources).generated());
  }
}
