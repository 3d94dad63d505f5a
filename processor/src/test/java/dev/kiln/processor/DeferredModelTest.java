package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import org.junit.jupiter.api.Test;

/**
 * A model that uses a constant another processor generates is read in the round after it
 * exists, not reported as broken in the round before.
 */
class DeferredModelTest {

  /** Writes {@code sized.Sizes} in the first round, as a code generator of the user's would. */
  private static final class SizesProcessor extends AbstractProcessor {
    private boolean written;

    @Override
    public Set<String> getSupportedAnnotationTypes() {
      return Set.of("*");
    }

    @Override
    public SourceVersion getSupportedSourceVersion() {
      return SourceVersion.latestSupported();
    }

    @Override
    public boolean process(Set<? extends TypeElement> annotations, RoundEnvironment round) {
      if (!written) {
        written = true;
        try (Writer w = processingEnv.getFiler().createSourceFile("sized.Sizes").openWriter()) {
          w.write("package sized;\n\n/** Sizes. */\npublic final class Sizes {\n"
              + "  public static final int PIXELS = 784;\n"
              + "  public static final int HIDDEN = 32;\n\n"
              + "  private Sizes() {}\n}\n");
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return false;
    }
  }

  @Test
  void modelUsingGeneratedConstantCompiles() {
    // The model's sizes come from a class that exists only after the first round.
    RecordingProcessor kiln = new RecordingProcessor();
    Compilation compilation = javac()
        .withProcessors(new SizesProcessor(), kiln)
        .compile(JavaFileObjects.forResource("good/sized/SizedMlp.java"));
    assertThat(compilation).succeededWithoutWarnings();
    assertThat(kiln.createdSourceFiles())
        .containsExactly("sized.SizedMlpGraph", "sized.SizedMlpModel", "sized.SizedMlpExec");
    assertThat(compilation).generatedSourceFile("sized.SizedMlpGraph")
        .contentsAsUtf8String()
        .contains("HIDDEN_WEIGHT_SHAPE = Shape.of(32, 784)");
  }
}
