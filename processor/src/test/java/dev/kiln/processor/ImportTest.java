package dev.kiln.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Models that import MXNet symbol files ({@code @Imported}), compiled under javac and ecj. */
class ImportTest {
  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void everyNodeOfTheFileIsCheckedAndEmittedUnderItsName(TestCompiler compiler) {
    Result r = compiler.compile("good/imported/ImportedLeNet");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("good.imported.ImportedLeNetGraph");
    String model = r.source("good.imported.ImportedLeNetModel");
    for (String expected :
        new String[] {
          "this.symbols.put(\"conv1\", this.builder.node(CONV1_SOURCE, ConvOp.filters(20)",
          "this.symbols.put(\"pool1\", this.builder.node(POOL1_SOURCE, PoolOp.max(2, 2),",
          "return this.builder.node(LENET_SOURCE, SoftmaxOp.axis(-1).classifierHead(),",
          "public static final Shape LENET_SHAPE = Shape.of(BATCH, 10);",
          "public Sym lenet(Sym data) {"
        }) {
      assertTrue(graph.contains(expected), expected + " in\n" + graph);
    }
    for (String expected :
        new String[] {
          "conv2    Convolution(kernel=(5, 5),        [BATCH, 50, 8, 8]     25050  3203.2 K",
          "fc1      FullyConnected(num_hidden=500)    [BATCH, 500]         400500   800.5 K",
          "public Parameter conv1Weight() {",
          "public Parameter fc2Bias() {",
          "public Classifier classifier() {"
        }) {
      assertTrue(model.contains(expected), expected + " in\n" + model);
    }
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void twoCutsOfOneFileShareItsNodesAndAreBothOutputs(TestCompiler compiler) {
    Result r = compiler.compile("good/imported/TwoCuts");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("good.imported.TwoCutsGraph");
    assertTrue(graph.contains("return builder.build(List.of(features, scores));"), graph);
    assertEquals(1, graph.split("this.symbols.put\\(\"conv1\"").length - 1, graph);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void namesThatAreNoJavaIdentifiersStayTheFilesAndTheirParametersGetAccessors(
      TestCompiler compiler) {
    Result r = compiler.compile("good/imported/Renamed");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("good.imported.RenamedGraph");
    String model = r.source("good.imported.RenamedModel");
    assertTrue(graph.contains("public Sym features(Sym input_1) {"), graph);
    assertTrue(graph.contains("this.symbols.put(\"pixels\", input_1);"), graph);
    assertTrue(graph.contains(".named(\"weight\", \"dense-0.weight\")"), graph);
    assertTrue(graph.contains("this.symbols.put(\"dense-0\","), graph);
    assertTrue(graph.contains("Sym features = graph.features(pixels);"), graph);
    assertTrue(model.contains("public Parameter dense0Weight() {"), model);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void aVariableThatSeveralNodesReadIsOneParameter(TestCompiler compiler) {
    Result r = compiler.compile("good/imported/Tied");
    assertTrue(r.clean(), r.diagnostics().toString());
    String model = r.source("good.imported.TiedModel");
    assertEquals(1, model.split("public Parameter sharedWeight\\(\\)").length - 1, model);
    assertEquals(1, model.split("public Parameter sharedBias\\(\\)").length - 1, model);
    // One 6x6 weight and one bias of 6, counted once.
    assertTrue(model.contains("42 parameters") || model.contains("42"), model);
  }

  @ParameterizedTest(name = "[{0}]")
  @EnumSource(TestCompiler.class)
  void theOperatorsOfRealFilesAreEmittedAsTheirUnitsAndEveryOutputIsOne(TestCompiler compiler) {
    Result r = compiler.compile("good/imported/Heads");
    assertTrue(r.clean(), r.diagnostics().toString());
    String graph = r.source("good.imported.HeadsGraph");
    for (String expected :
        new String[] {
          "ScalarOp.minus(127.5)",
          "ScalarOp.subtractedFrom(1.0)",
          "CropOp.likeSecond().centered()",
          "CropOp.window(2, 2).at(1, 0)",
          "CastOp.toFloat32()",
          "SoftmaxActivationOp.overChannels()",
          "SoftmaxActivationOp.overInstance()",
          "public static final Shape MISC_SHAPE = Shape.of(BATCH, 32);",
          "public static final Shape PROB1_SHAPE = Shape.of(BATCH, 2, 3, 3);"
        }) {
      assertTrue(graph.contains(expected), expected + " in\n" + graph);
    }
  }
}
