package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.AbstractProcessor;
import javax.annotation.processing.RoundEnvironment;
import javax.lang.model.SourceVersion;
import javax.lang.model.element.TypeElement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Defer, don't guess: a model that refers to something another processor generates is read in the
 * round after it exists, not reported as broken in the round before.
 */
class DeferralTest {

  /** Writes one source file in the first round, as a code generator of the user's would. */
  private static final class Generator extends AbstractProcessor {
    private final String name;
    private final String text;
    private boolean written;

    Generator(String name, String text) {
      this.name = name;
      this.text = text;
    }

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
        try (Writer w = processingEnv.getFiler().createSourceFile(name).openWriter()) {
          w.write(text);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return false;
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void aModelUsingAGeneratedConstantCompiles(TestCompiler compiler) {
    // The model's sizes come from a class that exists only after the first round.
    Generator sizes =
        new Generator(
            "sized.Sizes",
            "package sized;\n\n/** Sizes. */\n"
                + "public final class Sizes {\n  public static final int PIXELS = 784;\n"
                + "  public static final int HIDDEN = 32;\n\n  private Sizes() {}\n}\n");
    Result r =
        compiler.compile(
            List.of(sizes), List.of(), List.of(TestCompiler.resource("good/sized/SizedMlp")));
    assertTrue(r.clean(), r.diagnostics().toString());
    assertEquals(
        List.of("sized.SizedMlpGraph", "sized.SizedMlpModel", "sized.SizedMlpExec"),
        List.copyOf(r.generated().keySet()));
    assertTrue(r.source("sized.SizedMlpGraph").contains("HIDDEN_WEIGHT_SHAPE = Shape.of(32, 784)"));
  }

  @org.junit.jupiter.api.Test
  void withoutJavacsTreesAMisspeltLayerIsAlsoReportedMissingWithItsCause() {
    // In an environment that wraps javac's (Gradle's incremental processing), javac's trees are
    // not available: @Afine is hidden from Kiln, y() looks unannotated, and Kiln falls back to
    // MissingLayer, whose text names the likely cause. With javac's own environment the compiler's
    // error is the only one (BadCases: MisspeltLayer).
    Result r = TestCompiler.JAVAC.compileWrapped("bad/MisspeltLayer", "layers/Affine");
    assertEquals(2, r.errors().size(), r.diagnostics().toString());
    assertTrue(
        r.errors().get(0).message().startsWith("cannot find symbol"), r.diagnostics().toString());
    assertEquals(
        "[kiln:MissingLayer] MisspeltLayer.y(): abstract method y() is not a node: annotate it "
            + "with a layer such as @Input or @Dense (javac shows Kiln no annotation it cannot "
            + "resolve: if y() has one, the compiler's error on it is the one to fix)",
        r.errors().stream()
            .map(Result.Diag::message)
            .filter(m -> m.startsWith("[kiln:"))
            .findFirst()
            .orElseThrow(),
        r.diagnostics().toString());
    assertTrue(r.generated().isEmpty(), r.generated().toString());
  }

  @org.junit.jupiter.api.Test
  void withoutJavacsTreesAMethodWithoutALayerIsStillReportedOnce() {
    // The fallback is today's behaviour for a method that has no annotation at all, too.
    Result r = TestCompiler.JAVAC.compileWrapped("bad/MethodWithoutLayer");
    assertEquals(1, r.errors().size(), r.diagnostics().toString());
    assertTrue(
        r.errors().get(0).message().startsWith("[kiln:MissingLayer] MethodWithoutLayer.logits()"),
        r.diagnostics().toString());
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void aModelUsingAGeneratedLayerAnnotationCompiles(TestCompiler compiler) {
    // javac hides @Scale from processors until another processor has generated it.
    Generator layer =
        new Generator(
            "layers.Scale",
            "package layers;\n\n"
                + "import dev.kiln.annotations.Layer;\nimport dev.kiln.annotations.Param;\n"
                + "import dev.kiln.annotations.Sym;\n\n/** Scales each feature. */\n"
                + "@Layer(input = {\"batch\", \"in\"}, output = {\"batch\", \"in\"}, "
                + "forward = Scale.Forward.class)\npublic @interface Scale {\n"
                + "  /** The forward pass. */\n  final class Forward {\n    private Forward() {}\n\n"
                + "    /** x times a learned factor per feature. */\n"
                + "    public static Sym apply(Sym x, @Param(shape = {\"in\"}) Sym factor) {\n"
                + "      return x.mul(factor);\n    }\n  }\n}\n");
    Result r =
        compiler.compile(
            List.of(layer), List.of(), List.of(TestCompiler.resource("good/generated/ScaledNet")));
    assertTrue(r.clean(), r.diagnostics().toString());
    assertTrue(r.source("generated.ScaledNetGraph").contains("SCALED_FACTOR_SHAPE = Shape.of(8)"));
  }
}
