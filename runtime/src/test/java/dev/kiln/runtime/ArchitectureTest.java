package dev.kiln.runtime;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The runtime's packages are its layers, and every arrow points down (see {@code
 * docs/architecture.md}):
 *
 * <pre>
 * mxnet (binding) ← graph ← exec ← optim ← train ← io ← dev.kiln.runtime (facade) ← dist
 *                                 data ←┘
 * </pre>
 *
 * A layer may use any layer below it and none above; the root package is the facade generated
 * models call, and nothing below it imports it; distribution is a client of the facade.
 */
class ArchitectureTest {
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
            .layer("Facade")
            .definedBy("dev.kiln.runtime")
            .layer("Distribution")
            .definedBy("dev.kiln.runtime.dist..")
            .whereLayer("Distribution")
            .mayNotBeAccessedByAnyLayer()
            .whereLayer("Facade")
            .mayOnlyBeAccessedByLayers("Distribution")
            .whereLayer("IO")
            .mayOnlyBeAccessedByLayers("Facade", "Distribution")
            .whereLayer("Training")
            .mayOnlyBeAccessedByLayers("IO", "Facade", "Distribution")
            .whereLayer("Data")
            .mayOnlyBeAccessedByLayers("Training", "IO", "Facade", "Distribution")
            .whereLayer("Optimization")
            .mayOnlyBeAccessedByLayers("Training", "IO", "Facade", "Distribution")
            .whereLayer("Execution")
            .mayOnlyBeAccessedByLayers("Optimization", "Training", "IO", "Facade", "Distribution")
            .whereLayer("Graph")
            .mayOnlyBeAccessedByLayers(
                "Execution", "Optimization", "Training", "IO", "Facade", "Distribution")
            .whereLayer("Binding")
            .mayOnlyBeAccessedByLayers(
                "Graph", "Execution", "Optimization", "Training", "IO", "Facade", "Distribution");
    rule.check(RUNTIME);
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
}
