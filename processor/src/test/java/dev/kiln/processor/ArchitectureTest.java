package dev.kiln.processor;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The processor's packages and what each may use (see {@code docs/architecture.md}):
 *
 * <pre>
 * read → op → model ← check
 *              ↑
 *            write
 * </pre>
 *
 * The model (descriptions between the phases, the {@code Op} interface and its sites) uses none of
 * the phases; the ops use the model only; each phase uses the model, and only the reader knows the
 * ops (through their registry); the writers only format what the checker planned. Messages ({@code
 * diag}) and the shared names are below all of them.
 */
class ArchitectureTest {
  private static final JavaClasses PROCESSOR =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("dev.kiln.processor");

  @Test
  void phasesTalkThroughTheModelAndOnlyTheReaderKnowsTheOps() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("Diagnostics")
        .definedBy("dev.kiln.processor.diag..")
        .layer("Model")
        .definedBy("dev.kiln.processor.model..")
        .layer("Ops")
        .definedBy("dev.kiln.processor.op..")
        .layer("Read")
        .definedBy("dev.kiln.processor.read..")
        .layer("Check")
        .definedBy("dev.kiln.processor.check..")
        .layer("Write")
        .definedBy("dev.kiln.processor.write..")
        .layer("Processor")
        .definedBy("dev.kiln.processor")
        .whereLayer("Processor")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("Write")
        .mayOnlyBeAccessedByLayers("Processor")
        .whereLayer("Check")
        .mayOnlyBeAccessedByLayers("Processor")
        .whereLayer("Read")
        .mayOnlyBeAccessedByLayers("Processor")
        .whereLayer("Ops")
        .mayOnlyBeAccessedByLayers("Read")
        .whereLayer("Model")
        .mayOnlyBeAccessedByLayers("Ops", "Read", "Check", "Write", "Processor")
        .check(PROCESSOR);
  }

  @Test
  void nothingButTheWritersUsesJavaPoet() {
    noClasses()
        .that()
        .resideOutsideOfPackage("dev.kiln.processor.write..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.palantir.javapoet..")
        .check(PROCESSOR);
  }
}
