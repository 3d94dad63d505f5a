package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/** Custom {@code @Layer}s at compile time: the contract check, and one test per mistake. */
class CustomLayerDiagnosticsTest {
  private final RecordingProcessor kiln = new RecordingProcessor();

  private static JavaFileObject source(String path) {
    return JavaFileObjects.forResource(path + ".java");
  }

  private void assertOneError(String model, String layer, String message, String line) {
    JavaFileObject source = source("bad/" + model);
    Compilation c = javac().withProcessors(kiln).compile(source, source("layers/" + layer));
    assertThat(c).failed();
    assertThat(c).hadErrorCount(1);
    assertThat(c).hadErrorContaining(message).inFile(source).onLineContaining(line);
    assertThat(kiln.createdSourceFiles()).isEmpty();
  }

  @Test
  void aCustomLayerIsUsedLikeABuiltInAndItsShapesAreInferred() throws Exception {
    Compilation c = javac().withProcessors(kiln).withOptions("-Xlint:all", "-Xlint:-processing")
        .compile(source("good/custom/AffineNet"), source("layers/Affine"));
    assertThat(c).succeededWithoutWarnings();
    String graph = c.generatedSourceFile("custom.AffineNetGraph").orElseThrow()
        .getCharContent(true).toString();
    assertThat(graph).contains("SCORES_WEIGHT_SHAPE = Shape.of(784, 10)");
    assertThat(graph).contains("SCORES_BIAS_SHAPE = Shape.of(10)");
    assertThat(graph).contains("(input, params) -> Affine.Forward.apply(input, params.get(0), "
        + "params.get(1))");
    String model = c.generatedSourceFile("custom.AffineNetModel").orElseThrow()
        .getCharContent(true).toString();
    assertThat(model).contains("public Parameter scoresWeight()");
    assertThat(model).contains("public Classifier classifier()");
  }

  @Test
  void inputOfTheWrongRank() {
    // An image fed straight into a layer whose input pattern is [batch, in].
    assertOneError("CustomWrongRank", "Affine",
        "[kiln:CustomInput] CustomWrongRank.scores(): layer @Affine takes an input of shape "
            + "[batch, in], got [BATCH, 1, 28, 28] from image (@Input(shape = {BATCH, 1, 28, "
            + "28})): the ranks differ",
        "@Affine(out = 10)");
  }

  @Test
  void forwardClassWithoutAPublicStaticMethod() {
    // The layer's forward method was left package-private.
    assertOneError("CustomNoForward", "NoForward",
        "[kiln:CustomForward] CustomNoForward.y(): custom layer @NoForward cannot be used: its "
            + "forward class Body must have exactly one public static method returning Sym, "
            + "found 0",
        "@NoForward");
  }

  @Test
  void outputDimensionThatNothingBinds() {
    // The output pattern says "width", which is neither an element nor in the input pattern.
    assertOneError("CustomUnbound", "Unbound",
        "[kiln:CustomUnbound] CustomUnbound.y(): layer @Unbound uses dimension 'width' in its "
            + "output, but it is neither an int element of @Unbound nor bound by the input "
            + "pattern [batch, in]",
        "@Unbound(out = 4)");
  }

  @Test
  void parameterThatDependsOnTheBatch() {
    // A parameter shaped by the batch dimension cannot be allocated once for every batch size.
    assertOneError("CustomBatchParam", "BatchParam",
        "[kiln:CustomParamBatch] CustomBatchParam.y(): parameter scale of layer @BatchParam "
            + "would have shape [BATCH, 8]",
        "@BatchParam");
  }

  @Test
  void nonPositiveDimension() {
    // A layer dimension written as zero where the layer is used.
    assertOneError("CustomNonPositiveDim", "Affine",
        "[kiln:NonPositive] CustomNonPositiveDim.y() @Affine: out must be positive, got 0",
        "@Affine(out = 0)");
  }
}
