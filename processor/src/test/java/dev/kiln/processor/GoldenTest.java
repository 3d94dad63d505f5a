package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * Compiles the model of DESIGN.md and compares the three generated files with the goldens under
 * {@code src/test/resources/golden}. Set {@code KILN_UPDATE_GOLDEN} to any non-empty value to
 * rewrite the goldens instead; never edit them by hand.
 */
class GoldenTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden");
  private static final List<String> GENERATED =
      List.of("demo.FashionMlpGraph", "demo.FashionMlpModel", "demo.FashionMlpExec");

  /**
   * Every lint but {@code processing}, as the build itself compiles: that one only says that no
   * processor claimed {@code @Model} or {@code @Generated}, and Kiln never claims annotations.
   */
  private static Compilation compileFashionMlp() {
    return javac()
        .withProcessors(new KilnProcessor())
        .withOptions("-Xlint:all", "-Xlint:-processing")
        .compile(JavaFileObjects.forResource("good/demo/FashionMlp.java"));
  }

  private static String text(Compilation compilation, String qualifiedName) throws IOException {
    JavaFileObject file = compilation.generatedSourceFile(qualifiedName).orElseThrow(
        () -> new AssertionError(qualifiedName + " was not generated"));
    return file.getCharContent(true).toString();
  }

  private static Path goldenPath(String qualifiedName) {
    return GOLDEN.resolve(qualifiedName.replace('.', '/') + ".java");
  }

  private static boolean updating() {
    String value = System.getenv("KILN_UPDATE_GOLDEN");
    return value != null && !value.isEmpty();
  }

  @Test
  void fashionMlpMatchesGoldens() throws IOException {
    Compilation compilation = compileFashionMlp();
    assertThat(compilation).succeededWithoutWarnings();
    for (String name : GENERATED) {
      String actual = text(compilation, name);
      Path golden = goldenPath(name);
      if (updating()) {
        Files.createDirectories(golden.getParent());
        Files.writeString(golden, actual, StandardCharsets.UTF_8);
      } else {
        assertThat(actual).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
      }
    }
  }

  @Test
  void compilingTwiceGivesByteIdenticalOutput() throws IOException {
    Compilation first = compileFashionMlp();
    Compilation second = compileFashionMlp();
    for (String name : GENERATED) {
      assertThat(bytes(second, name)).isEqualTo(bytes(first, name));
    }
  }

  private static byte[] bytes(Compilation compilation, String qualifiedName) throws IOException {
    try (InputStream in = compilation.generatedSourceFile(qualifiedName).orElseThrow()
        .openInputStream()) {
      return in.readAllBytes();
    }
  }
}
