package dev.kiln.processor;

import static com.google.common.truth.Truth.assertThat;
import static com.google.testing.compile.CompilationSubject.assertThat;
import static com.google.testing.compile.Compiler.javac;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.JavaFileObjects;
import java.util.Locale;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;

/**
 * One test per diagnostic, each compiling one model from {@code src/test/resources/bad} that
 * makes one mistake. Each asserts that the mistake gives exactly one diagnostic, with its id and
 * the words that tell the user what to fix, on the line at fault, and that the model generated
 * no code.
 */
class DiagnosticsTest {
  private final RecordingProcessor kiln = new RecordingProcessor();

  private static JavaFileObject bad(String name) {
    return JavaFileObjects.forResource("bad/" + name + ".java");
  }

  private Compilation compile(JavaFileObject... sources) {
    return javac().withProcessors(kiln).compile(sources);
  }

  /**
   * Compiles {@code source} and asserts its one diagnostic: an error containing {@code message}
   * on the line containing {@code line}; and that nothing was generated.
   */
  private Compilation assertOneError(JavaFileObject source, String message, String line) {
    Compilation compilation = compile(source);
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation).hadWarningCount(0);
    assertThat(compilation).hadErrorContaining(message).inFile(source).onLineContaining(line);
    assertThat(kiln.createdSourceFiles()).isEmpty();
    return compilation;
  }

  private static String onlyErrorText(Compilation compilation) {
    return compilation.errors().get(0).getMessage(Locale.ROOT);
  }

  // --- The model type ---

  @Test
  void modelOnClass() {
    // @Model on an abstract class instead of an interface.
    assertOneError(bad("ModelOnClass"),
        "[kiln:ModelNotInterface] @Model must annotate an interface, but ModelOnClass is a class; "
            + "declare it as `interface ModelOnClass`",
        "abstract class ModelOnClass");
  }

  @Test
  void genericModel() {
    // A type parameter on the model interface.
    assertOneError(bad("GenericModel"),
        "[kiln:ModelGeneric] @Model interface GenericModel must not have type parameters",
        "interface GenericModel<T>");
  }

  @Test
  void emptyModel() {
    // A model interface with no methods at all.
    assertOneError(bad("EmptyModel"),
        "[kiln:ModelEmpty] @Model interface EmptyModel has no layer to compute; add an @Input and "
            + "at least one layer that reads it",
        "interface EmptyModel");
  }

  @Test
  void modelWithOnlyAnInput() {
    // An input and no layer: one error, not also an "unused input" warning.
    assertOneError(bad("InputsOnly"), "[kiln:ModelEmpty] @Model interface InputsOnly has no layer "
        + "to compute", "interface InputsOnly");
  }

  // --- One method at a time ---

  @Test
  void defaultMethodWithLayerAnnotation() {
    // A @Dense node written as a default method with a body.
    assertOneError(bad("DefaultNode"),
        "[kiln:NodeNotAbstract] hidden is annotated @Dense(units = 128) but has a body; a "
            + "built-in node is declared by an abstract method (remove the body)",
        "default Sym hidden(Sym pixels)");
  }

  @Test
  void nodeReturningInt() {
    // A node method that returns int instead of Sym.
    assertOneError(bad("NodeReturnsInt"),
        "[kiln:NodeReturnType] node logits must return Sym, not int", "int logits(Sym pixels)");
  }

  @Test
  void parameterOfNonSymType() {
    // A node that takes an int parameter besides its Sym input.
    assertOneError(bad("IntParameter"),
        "[kiln:NodeParamType] parameter units of node logits must be a Sym, not int",
        "int units");
  }

  @Test
  void abstractMethodWithoutLayer() {
    // A node method whose layer annotation was forgotten.
    assertOneError(bad("MethodWithoutLayer"),
        "[kiln:MissingLayer] abstract method logits() is not a node: annotate it with a layer "
            + "such as @Input or @Dense",
        "Sym logits(Sym hidden)");
  }

  @Test
  void twoLayerAnnotationsOnOneMethod() {
    // @Dense and @Softmax on the same method, as if it were two layers.
    assertOneError(bad("TwoLayers"),
        "[kiln:SeveralLayers] probs has 2 layer annotations (@Dense, @Softmax); a node is exactly "
            + "one layer, declare one node per layer",
        "Sym probs(Sym pixels)");
  }

  @Test
  void twoNodesWithOneName() {
    // Two node methods that overload one name.
    assertOneError(bad("OverloadedNode"),
        "[kiln:NodeNameTaken] two methods of OverloadedNode are named hidden; every node needs "
            + "its own name",
        "@Add Sym hidden");
  }

  @Test
  void denseWithZeroUnits() {
    // @Dense(units = 0); the error underlines the units value, not the method.
    assertOneError(bad("DenseZeroUnits"),
        "[kiln:NonPositive] DenseZeroUnits.hidden() @Dense: units must be positive, got 0",
        "units = 0");
  }

  @Test
  void inputWithoutShape() {
    // @Input with no shape at all.
    assertOneError(bad("InputWithoutShape"),
        "[kiln:InputWithoutShape] input pixels has no shape; give it one, e.g. @Input(shape = "
            + "{BATCH, 784})",
        "@Input");
  }

  @Test
  void inputWithEmptyShape() {
    // @Input(shape = {}): a shape with no dimensions.
    assertOneError(bad("InputEmptyShape"), "[kiln:InputWithoutShape] input pixels has no shape",
        "@Input(shape = {})");
  }

  @Test
  void inputWithZeroDimension() {
    // An input dimension of 0.
    assertOneError(bad("InputZeroDim"),
        "[kiln:BadInputDim] input pixels: dimension 1 is 0; a dimension must be positive, or "
            + "BATCH for one fixed at bind time",
        "shape = {BATCH, 0}");
  }

  @Test
  void activationNone() {
    // @Activation(Act.NONE), an activation that does nothing.
    assertOneError(bad("ActivationNone"),
        "[kiln:BadActivation] ActivationNone.act(): @Activation needs a function such as "
            + "Act.RELU; Act.NONE is no activation",
        "Act.NONE");
  }

  // --- Wiring ---

  @Test
  void wireToMisspelledNode() {
    // A parameter named hiden where the node is hidden.
    assertOneError(bad("UnknownWireTypo"),
        "[kiln:UnknownWire] UnknownWireTypo.logits() reads 'hiden', but UnknownWireTypo has no "
            + "node or input of that name; did you mean 'hidden'?",
        "Sym hiden");
  }

  @Test
  void wireToUnknownName() {
    // A parameter named features, which is close to no node: no "did you mean".
    Compilation compilation = assertOneError(bad("UnknownWireNoHint"),
        "[kiln:UnknownWire] UnknownWireNoHint.logits() reads 'features', but UnknownWireNoHint "
            + "has no node or input of that name",
        "Sym features");
    assertThat(onlyErrorText(compilation)).doesNotContain("did you mean");
  }

  @Test
  void fromToMisspelledNode() {
    // @From("hiden") where the node is hidden; the error is on the parameter.
    assertOneError(bad("UnknownFromTypo"),
        "[kiln:UnknownWire] UnknownFromTypo.logits() reads 'hiden', but UnknownFromTypo has no "
            + "node or input of that name; did you mean 'hidden'?",
        "@From(\"hiden\")");
  }

  @Test
  void wireToMisspelledInput() {
    // A parameter named pixles: one error, and no "unused input" warning for pixels.
    assertOneError(bad("InputNameTypo"),
        "[kiln:UnknownWire] InputNameTypo.hidden() reads 'pixles', but InputNameTypo has no node "
            + "or input of that name; did you mean 'pixels'?",
        "Sym pixles");
  }

  @Test
  void cycle() {
    // Two nodes that read each other.
    assertOneError(bad("CycleOfTwo"),
        "[kiln:Cycle] the nodes of CycleOfTwo form a cycle: first -> second -> first; a node "
            + "cannot depend on its own output",
        "Sym first(");
  }

  @Test
  void denseWithTwoInputs() {
    // A @Dense that reads two nodes.
    assertOneError(bad("DenseTwoInputs"),
        "[kiln:InputCount] DenseTwoInputs.hidden(): @Dense takes exactly 1 input, but hidden "
            + "declares 2 (pixels, mask)",
        "Sym hidden(");
  }

  @Test
  void addWithOneInput() {
    // An @Add of a single node.
    assertOneError(bad("AddOneInput"),
        "[kiln:InputCount] AddOneInput.skip(): @Add takes at least 2 inputs, but skip declares 1 "
            + "(hidden)",
        "Sym skip(");
  }

  // --- Shapes ---

  @Test
  void addOfDifferentShapes() {
    // @Add of [BATCH, 128] and [BATCH, 784]: both shapes and where each came from.
    assertOneError(bad("AddShapeMismatch"),
        "[kiln:ShapeMismatch] AddShapeMismatch.skip(): @Add needs equal shapes, got "
            + "[BATCH, 128] from hidden (@Dense(units = 128)) and [BATCH, 784] from pixels "
            + "(@Input(shape = {BATCH, 784}))",
        "@Add");
  }

  @Test
  void concatOfDifferentOtherDimensions() {
    // @Concat along axis 1 of [BATCH, 4, 8] and [BATCH, 4, 9]: axis 2 differs.
    assertOneError(bad("ConcatMismatch"),
        "[kiln:ConcatMismatch] ConcatMismatch.joined(): @Concat(axis = 1) needs "
            + "every dimension but axis 1 equal, got [BATCH, 4, 8] from left (@Input(shape = "
            + "{BATCH, 4, 8})) and [BATCH, 4, 9] from right (@Input(shape = {BATCH, 4, 9}))",
        "@Concat(axis = 1)");
  }

  @Test
  void concatOfDifferentRanks() {
    // @Concat of a rank-2 and a rank-3 tensor.
    assertOneError(bad("ConcatRankMismatch"),
        "[kiln:RankMismatch] ConcatRankMismatch.joined(): @Concat needs inputs of equal "
            + "rank, got [BATCH, 4] from left (@Input(shape = {BATCH, 4})) and [BATCH, 4, 2] from "
            + "right (@Input(shape = {BATCH, 4, 2}))",
        "@Concat");
  }

  @Test
  void denseOnBatchFeatures() {
    // @Dense fed [BATCH, BATCH]: its weight shape cannot be known.
    assertOneError(bad("DenseOnBatchFeatures"),
        "[kiln:UnknownFeatures] DenseOnBatchFeatures.logits(): @Dense needs "
            + "its input's feature dimensions known at compile time, got [BATCH, BATCH] from "
            + "tokens; only the first (batch) dimension may be BATCH",
        "@Dense(units = 10)");
  }

  @Test
  void softmaxAxisOutOfRange() {
    // @Softmax(axis = 5) on a rank-2 tensor.
    assertOneError(bad("SoftmaxAxisFive"),
        "[kiln:BadAxis] SoftmaxAxisFive.probs(): axis 5 is out of range for "
            + "[BATCH, 10] from logits (@Dense(units = 10)) of rank 2 (allowed: -2 to 1)",
        "axis = 5");
  }

  @Test
  void classifierWithoutSoftmax() {
    // @Model(classifier = true) on a model that ends in @Dense.
    assertOneError(bad("ClassifierWithoutSoftmax"),
        "[kiln:ClassifierNeedsSoftmax] classifier = true needs the last node of "
            + "ClassifierWithoutSoftmax to be @Softmax (training replaces it with MXNet's "
            + "SoftmaxOutput), but the last node logits is @Dense(units = 10)",
        "classifier = true");
  }

  @Test
  void classifierWithASecondOutput() {
    // @Model(classifier = true) where a dense node nothing reads is a second output.
    assertOneError(bad("ClassifierTwoOutputs"),
        "[kiln:ClassifierOutputs] classifier = true needs the softmax probs to be the only "
            + "output of ClassifierTwoOutputs, but probe also is read by no node",
        "Sym probe(");
  }

  @Test
  void classifierSoftmaxOverRank3() {
    // @Model(classifier = true) ending in a softmax over [BATCH, 20, 10], not [BATCH, classes].
    assertOneError(bad("ClassifierSoftmaxRank3"),
        "[kiln:ClassifierShape] classifier = true needs the last node of ClassifierSoftmaxRank3 "
            + "to be a softmax over the classes of a [BATCH, classes] tensor, but probs has shape "
            + "[BATCH, 20, 10] and axis -1",
        "classifier = true");
  }

  // --- One mistake, one diagnostic ---

  @Test
  void badNodeReadByTwoNodes() {
    // A bad @Add read by two nodes, themselves read by a third: still one error.
    assertOneError(bad("BadNodeReadTwice"), "[kiln:ShapeMismatch] BadNodeReadTwice.skip(): @Add",
        "@Add");
  }

  @Test
  void unknownConstantIsLeftToJavac() {
    // units = HIDEN, a misspelt constant: javac's error only, no Kiln error on top.
    Compilation compilation = assertOneError(bad("UnknownUnitsConstant"), "cannot find symbol",
        "units = HIDEN");
    assertThat(onlyErrorText(compilation)).doesNotContain("[kiln:");
  }

  @Test
  void unknownParameterTypeIsLeftToJavac() {
    // A parameter of type Symbol, which does not exist: javac's error only.
    Compilation compilation = assertOneError(bad("UnknownParameterType"), "cannot find symbol",
        "Symbol pixels");
    assertThat(onlyErrorText(compilation)).doesNotContain("[kiln:");
  }

  // --- Warnings ---

  @Test
  void unusedInput() {
    // An input that no node reads: a warning, and the model is still generated.
    JavaFileObject source = bad("UnusedInput");
    Compilation compilation = compile(source);
    assertThat(compilation).succeeded();
    assertThat(compilation).hadWarningCount(1);
    assertThat(compilation)
        .hadWarningContaining("[kiln:UnusedInput] input weights of UnusedInput is read by no "
            + "node; remove it or wire a node to it")
        .inFile(source)
        .onLineContaining("Sym weights()");
    assertThat(kiln.createdSourceFiles())
        .containsExactly("bad.UnusedInputGraph", "bad.UnusedInputModel", "bad.UnusedInputExec");
  }

  // --- Failures inside the processor ---

  @Test
  void exceptionWhileWritingIsOneErrorAndOtherModelsStillCompile() {
    // A class of the user's named like a generated one, so javac's Filer throws.
    JavaFileObject source = bad("GraphNameTaken");
    Compilation compilation = compile(source,
        JavaFileObjects.forResource("good/demo/FashionMlp.java"));
    assertThat(compilation).failed();
    assertThat(compilation).hadErrorCount(1);
    assertThat(compilation)
        .hadErrorContaining("[kiln:Internal] internal error in the Kiln processor while handling "
            + "GraphNameTaken; please report it with this trace: "
            + "javax.annotation.processing.FilerException")
        .inFile(source)
        .onLineContaining("interface GraphNameTaken");
    assertThat(kiln.createdSourceFiles())
        .containsExactly("demo.FashionMlpGraph", "demo.FashionMlpModel", "demo.FashionMlpExec");
  }
}
