package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the generated code must be beyond the goldens, under javac and ecj: every layer of the
 * library emitted with its inferred shapes, readable builder calls, and every line within 100
 * columns however long the user's names are.
 */
class GeneratedCodeTest {
  /** Models that compile cleanly, with the sources they need. */
  static final List<List<String>> GOOD =
      List.of(
          List.of("good/demo/FashionMlp"),
          List.of("good/lenet/LeNet"),
          List.of("good/custom/AffineNet", "layers/Affine"),
          List.of("good/custom/GatedNet", "layers/Gated"),
          List.of("good/cells/GruNet", "layers/GruCell"),
          List.of("good/cells/AnyStepsNet", "layers/GruCell"),
          List.of("good/heads/TwoHeads"),
          List.of("good/imported/ImportedLeNet"),
          List.of("good/imported/TwoCuts"),
          List.of("good/imported/Renamed"),
          List.of("good/layers/LayerZoo"),
          List.of("good/layers/SignalPools"),
          List.of("good/layers/ImageNorms"),
          List.of("good/layers/Decoder"),
          List.of("good/ops/TensorOps"),
          List.of("good/noparams/Pools"),
          List.of("good/multi/TwoInputSoftmax"),
          List.of("good/names/AwkwardNames", "layers/Named"),
          List.of("good/names/ClassifierNamedBuild"),
          List.of("good/names/ShadowingMembers"),
          List.of("good/stress/LongNamesAndWideLayers", "layers/WideAffine"));

  static Stream<Arguments> good() {
    return Stream.of(TestCompiler.values())
        .flatMap(c -> GOOD.stream().map(sources -> Arguments.of(c, sources)));
  }

  @ParameterizedTest(name = "[{0}] {1}")
  @MethodSource("good")
  void everyGeneratedLineFitsInOneHundredColumns(TestCompiler compiler, List<String> sources) {
    Result r = compiler.compile(sources.toArray(String[]::new));
    assertTrue(r.clean(), r.diagnostics().toString());
    assertEquals(3, r.generated().size());
    List<String> tooLong = new ArrayList<>();
    for (Map.Entry<String, String> file : r.generated().entrySet()) {
      List<String> lines = file.getValue().lines().toList();
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).length() > 100) {
          tooLong.add(
              file.getKey() + ":" + (i + 1) + " (" + lines.get(i).length() + "): " + lines.get(i));
        }
      }
    }
    assertEquals(List.of(), tooLong);
  }

  /**
   * A U-Net's skip connection over sizes declared even: pooled by 2 and upsampled by 2 is the
   * input's own size, so the sum compiles, and the shapes print in the user's names ({@code H / 2},
   * not {@code H@2}).
   */
  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void aSkipConnectionOverDeclaredMultiplesCompiles(TestCompiler compiler) {
    Result r = compiler.compile("good/dims/UNet");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("dims.UNetGraph");
    for (String expected :
        new String[] {
          "IMAGE_SHAPE = Shape.of(BATCH, 8, H, W).free(\"H\", \"W\");",
          "POOLED_SHAPE =",
          "\"H / 2\"",
          "\"W / 2\"",
          "H % 2 == 0",
          "W % 2 == 0"
        }) {
      assertTrue(graph.contains(expected), expected + " in\n" + graph);
    }
    assertTrue(!graph.contains("@2"), graph);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void everyLayerIsEmittedWithItsInferredShapes(TestCompiler compiler) {
    Result r = compiler.compile("good/layers/LayerZoo");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("good.layers.LayerZooGraph");
    String[] expected = {
      "IMAGE_SHAPE = Shape.of(BATCH, 1, 28, 28);",
      "CONV1_SHAPE = Shape.of(BATCH, 6, 28, 28);",
      "CONV1_WEIGHT_SHAPE = Shape.of(6, 1, 5, 5);",
      "BN1_MOVING_VAR_SHAPE = Shape.of(6);",
      "POOL1_SHAPE = Shape.of(BATCH, 6, 14, 14);",
      // height (14 - 5) / 1 + 1 = 10, width (14 - (2·2 + 1)) / 2 + 1 = 5
      "CONV2_SHAPE = Shape.of(BATCH, 16, 10, 5);",
      "CONV2_WEIGHT_SHAPE = Shape.of(16, 6, 5, 3);",
      // (10 + 2 - 2) / 1 + 1 = 11, (5 + 2 - 2) / 1 + 1 = 6
      "POOL2_SHAPE = Shape.of(BATCH, 16, 11, 6);",
      "GAP_SHAPE = Shape.of(BATCH, 16, 1, 1);",
      "FEATURES_SHAPE = Shape.of(BATCH, 16, 1);",
      "VECTORS_SHAPE = Shape.of(BATCH, 6, 8);",
      "VECTORS_WEIGHT_SHAPE = Shape.of(50, 8);",
      "PAIRS_SHAPE = Shape.of(BATCH, 2, 3, 8);",
      "NORM_GAMMA_SHAPE = Shape.of(48);",
      "return this.builder.node(CONV1_SOURCE,\n"
          + "        ConvOp.filters(6).kernel(5, 5).pad(2, 2).activation(Act.RELU), image);",
      "return this.builder.node(POOL1_SOURCE, PoolOp.max(2, 2), bn1);",
      "return this.builder.node(CONV2_SOURCE,\n"
          + "        ConvOp.filters(16).kernel(5, 3).stride(1, 2).dilation(1, 2).withoutBias(), "
          + "pool1);",
      "return this.builder.node(POOL2_SOURCE, PoolOp.avg(2, 2).stride(1, 1).pad(1, 1), conv2);",
      "return this.builder.node(IMAGE_SOURCE, ReshapeOp.of(BATCH, 1, 28, 28), pixels);",
      "return this.builder.node(FEATURES_SOURCE, ReshapeOp.of(0, -3, -2), gap);",
      "return this.builder.node(BN1_SOURCE, BatchNormOp.channelAxis(1).eps(0.001).momentum(0.9),"
          + "\n        conv1);",
      "this.builder.freeze(VECTORS_SOURCE);\n    return this.builder.node(VECTORS_SOURCE, "
          + "EmbeddingOp.rows(50).columns(8), tokens);",
      "return this.builder.node(NORM_SOURCE, LayerNormOp.axis(-1).eps(1e-5), flatPairs);",
      "return this.builder.node(DROPPED_SOURCE, DropoutOp.rate(0.25), norm);",
    };
    for (String e : expected) {
      assertTrue(graph.contains(e), e + " in\n" + graph);
    }
    String model = r.source("good.layers.LayerZooModel");
    assertTrue(
        model.contains("public Parameter bn1MovingMean()")
            && model.contains("return runtime.auxState(\"bn1_moving_mean\");"),
        model);
    assertTrue(model.contains("case \"bn1_moving_mean\" -> bn1MovingMean();"), model);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void aSignalIsPooledAlongItsWidthWithOneValuePerWindowAttribute(TestCompiler compiler) {
    Result r = compiler.compile("good/layers/SignalPools");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("good.layers.SignalPoolsGraph");
    String[] expected = {
      // (20 + 2 - 3) / 2 + 1 = 10, 10 / 2 = 5
      "MAX_SHAPE = Shape.of(BATCH, 4, 10);",
      "AVG_SHAPE = Shape.of(BATCH, 4, 5);",
      "MEAN_SHAPE = Shape.of(BATCH, 4, 1);",
      "return this.builder.node(MAX_SOURCE, PoolOp.max(3).stride(2).pad(1), signal);",
      "return this.builder.node(AVG_SOURCE, PoolOp.avg(2), max);",
      "return this.builder.node(MEAN_SOURCE, GlobalPoolOp.avg(), avg);",
      "PEAK_SHAPE = Shape.of(BATCH, 4, 1);",
      "return this.builder.node(PEAK_SOURCE, GlobalPoolOp.max(), max);",
      // 1 + ceil((20 - 3) / 2) = 10 under the full convention (9 under valid)
      "COARSE_SHAPE = Shape.of(BATCH, 4, 10);",
      "return this.builder.node(COARSE_SOURCE, PoolOp.avg(3).stride(2).convention(PoolConvention.FULL),\n"
          + "        signal);",
      "import dev.kiln.annotations.PoolConvention;",
    };
    for (String e : expected) {
      assertTrue(graph.contains(e), e + " in\n" + graph);
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void lrnWritesWhatDiffersFromMxnetsDefaultsAndPReluHasATypedSlope(TestCompiler compiler) {
    Result r = compiler.compile("good/layers/ImageNorms");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("good.layers.ImageNormsGraph");
    String[] expected = {
      "ALEXNET_SHAPE = Shape.of(BATCH, 8, 14, 14);",
      "TUNED_SHAPE = Shape.of(BATCH, 8, 14, 14);",
      "return this.builder.node(ALEXNET_SOURCE, LrnOp.size(5), conv);",
      "return this.builder.node(TUNED_SOURCE, LrnOp.size(3).alpha(0.001).beta(0.5).k(1.0), "
          + "alexnet);",
      "ACT_SHAPE = Shape.of(BATCH, 8, 14, 14);",
      "ACT_ALPHA_SHAPE = Shape.of(8);",
      "return this.builder.node(ACT_SOURCE, PReluOp.perChannel(), tuned);",
    };
    for (String e : expected) {
      assertTrue(graph.contains(e), e + " in\n" + graph);
    }
    String model = r.source("good.layers.ImageNormsModel");
    assertTrue(
        model.contains("public Parameter actAlpha()")
            && model.contains("return runtime.param(\"act_alpha\");"),
        model);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void upsamplingMultipliesHeightAndWidthAndNamesItsMode(TestCompiler compiler) {
    Result r = compiler.compile("good/layers/Decoder");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("good.layers.DecoderGraph");
    String[] expected = {
      "COARSE_SHAPE = Shape.of(BATCH, 4, 14, 14);",
      "FINE_SHAPE = Shape.of(BATCH, 4, 28, 28);",
      "return this.builder.node(COARSE_SOURCE, UpsampleOp.nearest(2), code);",
      "return this.builder.node(FINE_SOURCE, UpsampleOp.bilinear(2), smooth);",
    };
    for (String e : expected) {
      assertTrue(graph.contains(e), e + " in\n" + graph);
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void nodesNamedLikeGeneratedMembersCompileAndKeepTheirNames(TestCompiler compiler) {
    // Every legal method name is a node name: the generated members it meets give way, and only
    // where Java forbids the name itself (a record component hashCode) does the member differ.
    Result r = compiler.compile("good/names/AwkwardNames", "layers/Named");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("names.AwkwardNamesGraph");
    assertTrue(graph.contains("public Sym build() {"), graph);
    assertTrue(graph.contains("public Sym buildClassifier() {"), graph);
    assertTrue(graph.contains("public static Graph build(GraphBuilder builder) {"), graph);
    assertTrue(graph.contains("public Sym finalize(Sym getClass, Sym wait) {"), graph);
    String model = r.source("names.AwkwardNamesModel");
    assertTrue(
        model.contains("public record Gradients(NDArray build, NDArray buildClassifier,"), model);
    assertTrue(model.contains("NDArray clone_,"), model);
    assertTrue(model.contains("NDArray hashCode_,"), model);
    assertTrue(model.contains("public Parameter hashCode_() {"), model);
    assertTrue(model.contains("public Parameter auxiliaryStates_() {"), model);
    assertTrue(model.contains("public Parameter toString_() {"), model);
    assertTrue(model.contains("public Parameter aBGates() {"), model);
    assertTrue(model.contains("public RecurrentParameter aBGates_() {"), model);
    assertTrue(r.source("names.AwkwardNamesExec").contains("public final ExecArray executor_;"));
    Result c = compiler.compile("good/names/ClassifierNamedBuild");
    assertTrue(c.clean(), c.diagnostics().toString());
    assertTrue(
        c.source("names.ClassifierNamedBuildGraph").contains("public Sym buildClassifier() {"));
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void membersOfTheModelDoNotShadowWhatTheGraphRefersTo(TestCompiler compiler) {
    // The graph implements the model, so the model's BATCH (32) and nested Shape, List and
    // Graph would win over the static import of Dim.BATCH and the imported types.
    Result r = compiler.compile("good/names/ShadowingMembers");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("names.ShadowingMembersGraph");
    String oneLine = graph.replaceAll("\\s+", " ");
    assertTrue(
        oneLine.contains("PIXELS_SHAPE = dev.kiln.runtime.graph.Shape.of(Dim.BATCH, 784);"), graph);
    assertTrue(
        oneLine.contains("HIDDEN_SHAPE = dev.kiln.runtime.graph.Shape.of(Dim.BATCH, 32);"), graph);
    assertTrue(!graph.contains("import static"), graph);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void aSoftmaxModelWithSeveralInputsIsNoClassifierAndSaysWhy(TestCompiler compiler) {
    // Classifier training feeds one batch of features: with several inputs the others would
    // stay zero and their weights would never change.
    Result r = compiler.compile("good/multi/TwoInputSoftmax");
    assertTrue(r.clean(), r.diagnostics().toString());
    String model = r.source("multi.TwoInputSoftmaxModel");
    assertTrue(model.contains("public boolean isClassifier() {\n    return false;"), model);
    String joined = model.replaceAll("\"\\s*\\+\\s*\"", "");
    assertTrue(
        joined.contains(
            "\"TwoInputSoftmaxModel is not a classifier: it has 2 inputs "
                + "(pixels, meta), and classifier training feeds one batch of features to one input\""),
        model);
    assertTrue(
        !model.contains("runtime.classifier(")
            && !r.source("multi.TwoInputSoftmaxGraph").contains("classifierHead"),
        model);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void aCustomLayerIsUsedLikeABuiltInAndItsShapesAreInferred(TestCompiler compiler) {
    Result r = compiler.compile("good/custom/AffineNet", "layers/Affine");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("custom.AffineNetGraph");
    assertTrue(graph.contains("SCORES_WEIGHT_SHAPE = Shape.of(784, 10)"), graph);
    assertTrue(graph.contains("SCORES_BIAS_SHAPE = Shape.of(10)"), graph);
    assertTrue(
        graph.contains(
            "(input, params) -> Affine.Forward.apply(input, params.get(0), " + "params.get(1))"),
        graph);
    String model = r.source("custom.AffineNetModel");
    assertTrue(model.contains("public Parameter scoresWeight()"), model);
    assertTrue(model.contains("public Classifier classifier()"), model);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void aBodyTracedAtCompileTimeTakesTheLayersElementsAndGetsNoNote(TestCompiler compiler) {
    // reshape(BATCH, heads, size) with heads = 2, size = 4 from the use site: traced under javac,
    // which then has nothing to note; ecj shows no body, so the note says the build checks it.
    Result r = compiler.compile("good/custom/HeadsNet", "layers/Heads");
    assertEquals(List.of(), r.errors(), r.diagnostics().toString());
    assertEquals(List.of(), r.warnings(), r.diagnostics().toString());
    if (compiler == TestCompiler.JAVAC) {
      assertEquals(List.of(), r.notes(), r.diagnostics().toString());
    } else {
      assertEquals(1, r.notes().size(), r.diagnostics().toString());
      assertTrue(
          r.notes()
              .get(0)
              .message()
              .contains("this compiler shows annotation processors no method"),
          r.notes().toString());
    }
    assertTrue(r.source("custom.HeadsNetGraph").contains("Heads.Forward.apply"));
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void aCellIsUnrolledOverTheStepsAndItsOutputIsEveryStepsState(TestCompiler compiler) {
    Result r = compiler.compile("good/cells/GruNet", "layers/GruCell");
    assertTrue(r.clean(), r.diagnostics().toString());
    // javac shows the processor the step's body, traced at compile time; ecj does not: a note.
    if (compiler == TestCompiler.JAVAC) {
      assertEquals(List.of(), r.notes(), r.diagnostics().toString());
    } else {
      assertEquals(
          "[kiln:CustomBodyAtBuild] GruNet.states(): the step of @GruCell "
              + "(GruCell.Step.apply) is traced when the graph is built, in create() and load(), not "
              + "checked by the compiler (this compiler shows annotation processors no method bodies; "
              + "javac does): once per step; each step reads [BATCH, 3] of [BATCH, 5, 3] "
              + "from x and the previous state [BATCH, 4], with parameters states_wxr [3, 4], "
              + "states_wxz [3, 4], states_wxn [3, 4], states_whr [4, 4], states_whz [4, 4], states_whn "
              + "[4, 4], states_br [4], states_bz [4], states_bxn [4] and states_bhn [4], and must "
              + "return the new state [BATCH, 4]",
          r.notes().get(0).message());
    }
    String graph = r.source("cells.GruNetGraph");
    // [BATCH, 5, 3] read one step of [BATCH, 3] at a time: the state [BATCH, 4] at each step.
    assertTrue(graph.contains("STATES_SHAPE = Shape.of(BATCH, 5, 4);"), graph);
    assertTrue(graph.contains("STATES_WXR_SHAPE = Shape.of(3, 4);"), graph);
    assertTrue(graph.contains("STATES_WHN_SHAPE = Shape.of(4, 4);"), graph);
    assertTrue(
        graph.contains(
            "return this.builder.cell(STATES_SOURCE, \"GruCell\", List.of(\"batch\", \"in\"),\n"
                + "        List.of(\"batch\", \"hidden\"), X_SHAPE, STATES_SHAPE, x,"),
        graph);
    assertTrue(
        graph.contains(
            "(input, state, params) -> GruCell.Step.apply(input, state, " + "params.get(0),"),
        graph);
    String model = r.source("cells.GruNetModel");
    assertTrue(model.contains("public Parameter statesWhn()"), model);
    assertTrue(model.contains("custom cell GruCell, unrolled"), model);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void aCellOverStepsIsBuiltPerNumberOfStepsAndAModelWithoutOneIsNot(TestCompiler compiler) {
    Result r = compiler.compile("good/cells/AnyStepsNet", "layers/GruCell");
    assertTrue(r.clean(), r.diagnostics().toString());
    String model = r.source("cells.AnyStepsNetModel");
    assertTrue(model.contains("private static Graph graph(boolean training, int steps) {"), model);
    // The builder unrolls over the steps and the graph can build itself for any other number.
    String flat = model.replaceAll("\\s+", " ");
    assertTrue(
        flat.contains(
            "new GraphBuilder(\"AnyStepsNet\", training, steps, s -> graph(training, s))"),
        model);
    assertTrue(model.contains("return graph(training, 1);"), model);
    String graph = r.source("cells.AnyStepsNetGraph");
    assertTrue(graph.contains("STATES_SHAPE = Shape.of(BATCH, -5, 4);"), graph);
    // Over a constant number of steps, one graph: no graph(boolean, int).
    String constant =
        compiler.compile("good/cells/GruNet", "layers/GruCell").source("cells.GruNetModel");
    assertTrue(!constant.contains("int steps") && !constant.contains(", steps,"), constant);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void customParametersStartAsTheirParamInitSays(TestCompiler compiler) {
    // zeros = true with init = ZEROS agrees with itself; a CONSTANT passes its value.
    Result r = compiler.compile("good/custom/ScaleShiftNet", "layers/ScaleShift");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("custom.ScaleShiftNetGraph");
    for (String line :
        List.of(
            "Sym weight = this.builder.customParam(Y_SOURCE, \"weight\", Y_WEIGHT_SHAPE, "
                + "List.of(\"in\", \"out\"),\n        ParamInit.MODEL);",
            "Sym scale = this.builder.customParam(Y_SOURCE, \"scale\", Y_SCALE_SHAPE, "
                + "List.of(\"out\"),\n        ParamInit.ONES);",
            "Sym shift = this.builder.customParam(Y_SOURCE, \"shift\", Y_SHIFT_SHAPE, "
                + "List.of(\"out\"),\n        ParamInit.CONSTANT, -0.25);",
            "Sym bias = this.builder.customParam(Y_SOURCE, \"bias\", Y_BIAS_SHAPE, "
                + "List.of(\"out\"),\n        ParamInit.ZEROS);")) {
      assertTrue(graph.contains(line), graph);
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void customParametersAreNamedInSnakeCaseLikeBuiltInOnes(TestCompiler compiler) {
    // Parameter gateWeight of node gated is MXNet's gated_gate_weight, as in moving_mean.
    Result r = compiler.compile("good/custom/GatedNet", "layers/Gated");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("custom.GatedNetGraph");
    assertTrue(graph.contains("GATED_GATE_WEIGHT_SHAPE = Shape.of(3);"), graph);
    assertTrue(
        graph.contains(
            "Sym gateWeight = this.builder.customParam(GATED_SOURCE, \"gate_weight\", "
                + "GATED_GATE_WEIGHT_SHAPE,\n        List.of(\"out\"), ParamInit.ZEROS);"),
        graph);
    String model = r.source("custom.GatedNetModel");
    assertTrue(
        model.contains(
            "public Parameter gatedGateWeight() {\n"
                + "      return runtime.param(\"gated_gate_weight\");"),
        model);
    assertTrue(model.contains("case \"gated_gate_weight\" -> gatedGateWeight();"), model);
    String exec = r.source("custom.GatedNetExec");
    assertTrue(
        exec.contains("this.gatedGateWeight = runtime.weightArray(\"gated_gate_weight\");"), exec);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void whatOnlyTheGraphBuildCanTellIsSaidAtCompileTime(TestCompiler compiler) {
    // A custom layer's body the compiler does not trace (it calls a helper method): its output
    // shape is the declared one, and creating the model is where a body that does not fit it fails.
    Result r = compiler.compile("good/custom/OpaqueWeightNet", "layers/OpaqueWeight");
    assertTrue(r.clean(), r.diagnostics().toString());
    String model = r.source("custom.OpaqueWeightNetModel");
    assertTrue(
        model.matches("(?s).*scores  @OpaqueWeight\\(out = 10\\) +\\[BATCH, 10\\]\\*.*"), model);
    assertTrue(
        model.contains(
            "* declared by the custom layer; its forward body is traced and "
                + "checked when the graph is built"),
        model);
    assertTrue(
        model.contains("@throws dev.kiln.runtime.graph.ModelException if the forward " + "body of"),
        model);
    assertTrue(
        model
            .replaceAll("\\s+\\*\\s+", " ")
            .contains(
                "custom layer {@code "
                    + "@OpaqueWeight(out = 10)} (node {@code scores}) does not fit the shapes it declares,"),
        model);
    String graph = r.source("custom.OpaqueWeightNetGraph");
    assertTrue(
        graph
            .replaceAll("\\s+\\*\\s+", " ")
            .contains(
                "Output shape of node {@code "
                    + "scores} as its custom layer {@code "
                    + "@OpaqueWeight(out = 10)} declares it: {@code [BATCH, 10]}."),
        graph);
  }
}
