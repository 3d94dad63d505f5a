package dev.kiln.runtime;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.kiln.runtime.exec.ExecutorCache;
import dev.kiln.runtime.graph.GraphBuilder;
import dev.kiln.runtime.mxnet.LibC;
import dev.kiln.runtime.mxnet.Mx;
import dev.kiln.runtime.mxnet.MxApi;
import org.junit.jupiter.api.Test;

/**
 * The runtime's packages are its layers, and every arrow points down (see {@code
 * docs/architecture.md}):
 *
 * <pre>
 * mxnet (binding) ← graph ← exec ← optim ← train ← io ← infer ← dev.kiln.runtime (facade) ← dist
 *                                 data ←┘
 * </pre>
 *
 * A layer may use any layer below it and none above; the root package is the facade generated
 * models call, and nothing below it imports it; distribution is a client of the facade. The binding
 * is the only door to the native library: nothing else uses JNA or MXNet's C API, and DJL's arrays
 * appear only at the public API edge. Process supervision (starting a job's processes, remote
 * shells, hosts files) is the {@code kiln} command's ({@code dev.kiln.cli.launch} in {@code
 * kiln-cli}): the runtime starts no process.
 *
 * <p>Inside the graph layer, the builder and the finished graph ({@code graph}) are the core;
 * custom-layer tracing ({@code graph.trace}) builds on them and is reached only through the {@code
 * GraphBuilder}, which hands it custom layers and cells; the bf16 pass ({@code graph.precision})
 * works on finished graphs, and neither the core nor tracing uses it.
 */
class ArchitectureTest {
  private static final String BINDING = "dev.kiln.runtime.mxnet..";
  private static final String GRAPH = "dev.kiln.runtime.graph";
  private static final String TRACING = "dev.kiln.runtime.graph.trace..";
  private static final String PRECISION = "dev.kiln.runtime.graph.precision..";

  private static final JavaClasses RUNTIME =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.kiln.runtime");

  @Test
  void layersOnlyUseTheLayersBelowThem() {
    ArchRule rule =
        layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("Binding")
            .definedBy("dev.kiln.runtime.mxnet..")
            .layer("Graph")
            .definedBy("dev.kiln.runtime.graph..")
            .layer("Execution")
            .definedBy("dev.kiln.runtime.exec..")
            .layer("Optimization")
            .definedBy("dev.kiln.runtime.optim..")
            .layer("Data")
            .definedBy("dev.kiln.runtime.data..")
            .layer("Training")
            .definedBy("dev.kiln.runtime.train..")
            .layer("IO")
            .definedBy("dev.kiln.runtime.io..")
            .layer("Inference")
            .definedBy("dev.kiln.runtime.infer..")
            .layer("Facade")
            .definedBy("dev.kiln.runtime")
            .layer("Distribution")
            .definedBy("dev.kiln.runtime.dist..")
            .whereLayer("Distribution")
            .mayNotBeAccessedByAnyLayer()
            .whereLayer("Facade")
            .mayOnlyBeAccessedByLayers("Distribution")
            .whereLayer("Inference")
            .mayOnlyBeAccessedByLayers("Facade", "Distribution")
            .whereLayer("IO")
            .mayOnlyBeAccessedByLayers("Inference", "Facade", "Distribution")
            .whereLayer("Training")
            .mayOnlyBeAccessedByLayers("IO", "Inference", "Facade", "Distribution")
            .whereLayer("Data")
            .mayOnlyBeAccessedByLayers("Training", "IO", "Inference", "Facade", "Distribution")
            .whereLayer("Optimization")
            .mayOnlyBeAccessedByLayers("Training", "IO", "Inference", "Facade", "Distribution")
            .whereLayer("Execution")
            .mayOnlyBeAccessedByLayers(
                "Optimization", "Training", "IO", "Inference", "Facade", "Distribution")
            .whereLayer("Graph")
            .mayOnlyBeAccessedByLayers(
                "Execution",
                "Optimization",
                "Training",
                "IO",
                "Inference",
                "Facade",
                "Distribution")
            .whereLayer("Binding")
            .mayOnlyBeAccessedByLayers(
                "Graph",
                "Execution",
                "Optimization",
                "Training",
                "IO",
                "Inference",
                "Facade",
                "Distribution");
    rule.check(RUNTIME);
  }

  @Test
  void tracingIsReachedOnlyThroughTheGraphBuilder() {
    noClasses()
        .that()
        .resideOutsideOfPackage(TRACING)
        .and()
        .doNotBelongToAnyOf(GraphBuilder.class)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(TRACING)
        .because(
            "custom layers and cells are traced while GraphBuilder builds them; everything else"
                + " sees their symbols as Sym")
        .check(RUNTIME);
  }

  @Test
  void theGraphCoreAndTracingDoNotUsePrecision() {
    noClasses()
        .that()
        .resideInAnyPackage(GRAPH, TRACING)
        .should()
        .dependOnClassesThat()
        .resideInAPackage(PRECISION)
        .because("the bf16 pass works on a finished Graph, after the builder is done")
        .check(RUNTIME);
  }

  @Test
  void theRuntimeStartsNoProcess() {
    noClasses()
        .should()
        .dependOnClassesThat()
        .belongToAnyOf(ProcessBuilder.class, Process.class)
        .orShould()
        .callMethod(Runtime.class, "exec", String.class)
        .orShould()
        .callMethod(Runtime.class, "exec", String[].class)
        .because(
            "the ps-lite roles, KVStore and DataParallel stay in dev.kiln.runtime.dist; starting"
                + " and watching a job's processes is kiln launch's (dev.kiln.cli.launch)")
        .check(RUNTIME);
  }

  @Test
  void dataHasNoMxnetDependency() {
    noClasses()
        .that()
        .resideInAPackage("dev.kiln.runtime.data..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.kiln.runtime.mxnet..", "ai.djl..", "com.sun.jna..")
        .check(RUNTIME);
  }

  @Test
  void onlyTheBindingUsesJnaOrMxnetsCApi() {
    noClasses()
        .that()
        .resideOutsideOfPackage(BINDING)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("com.sun.jna..")
        .orShould()
        .dependOnClassesThat()
        .belongToAnyOf(MxApi.class, LibC.class)
        .orShould()
        .callMethod(Mx.class, "api")
        .because(
            "native handles are the binding's typed, closeable handles (SymbolHandle,"
                + " NDArrayHandle, ExecutorHandle, KvStoreHandle, PreparedOp); see"
                + " docs/architecture.md")
        .check(RUNTIME);
  }

  @Test
  void onlyTheBindingUsesDjlsMxnetEngine() {
    noClasses()
        .that()
        .resideOutsideOfPackage(BINDING)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("ai.djl.mxnet..")
        .check(RUNTIME);
  }

  @Test
  void djlArraysAppearOnlyAtThePublicApiEdge() {
    noClasses()
        .that()
        .resideOutsideOfPackage(BINDING)
        .and()
        .doNotBelongToAnyOf(ModelRuntime.class, KilnModel.class, ExecutorCache.class)
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("ai.djl..")
        .check(RUNTIME);
  }
}
