package dev.kiln.testing;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The outcome of compiling model sources with Kiln's processor: whether it succeeded, every
 * diagnostic, the sources Kiln generated and, for each model that compiled, what the processor
 * inferred. The {@code assert} methods throw {@link AssertionError} with every diagnostic in the
 * message, so they work under any test framework.
 */
public final class Compilation {
  private final boolean succeeded;
  private final List<KilnDiagnostic> diagnostics;
  private final Map<String, String> generated;
  private final Map<String, ModelDescription> models;

  Compilation(
      boolean succeeded,
      List<KilnDiagnostic> diagnostics,
      Map<String, String> generated,
      Map<String, ModelDescription> models) {
    this.succeeded = succeeded;
    this.diagnostics = List.copyOf(diagnostics);
    this.generated = Map.copyOf(generated);
    this.models = Map.copyOf(models);
  }

  /**
   * Returns whether the compiler reported no error.
   *
   * @return true if every source, generated ones included, compiled
   */
  public boolean succeeded() {
    return succeeded;
  }

  /**
   * Returns every diagnostic, in the order the compiler gave them.
   *
   * @return Kiln's diagnostics and the compiler's own
   */
  public List<KilnDiagnostic> diagnostics() {
    return diagnostics;
  }

  /**
   * Returns the errors.
   *
   * @return every diagnostic of kind error
   */
  public List<KilnDiagnostic> errors() {
    return diagnostics.stream().filter(KilnDiagnostic::isError).toList();
  }

  /**
   * Returns the warnings.
   *
   * @return every warning, Kiln's ({@code UnusedNode}, ...) and the compiler's lint warnings
   */
  public List<KilnDiagnostic> warnings() {
    return diagnostics.stream().filter(KilnDiagnostic::isWarning).toList();
  }

  /**
   * Returns the sources Kiln generated, by qualified name. A model with an error generates none.
   *
   * @return for example {@code demo.FashionMlpModel -> "package demo; ..."}
   */
  public Map<String, String> generatedSources() {
    return generated;
  }

  /**
   * Returns what the processor inferred for one model.
   *
   * @param name the model interface's qualified name ({@code demo.FashionMlp}) or, when only one
   *     model of that simple name was compiled, its simple name
   * @return its description
   * @throws AssertionError if no model of that name compiled (an error stops a model from being
   *     generated); the message lists the diagnostics
   */
  public ModelDescription model(String name) {
    ModelDescription m = models.get(name);
    if (m != null) {
      return m;
    }
    List<ModelDescription> bySimpleName =
        models.values().stream().filter(d -> d.name().endsWith("." + name)).toList();
    if (bySimpleName.size() == 1) {
      return bySimpleName.get(0);
    }
    throw new AssertionError(
        "no model " + name + " was generated; models generated: " + models.keySet() + report());
  }

  /**
   * Asserts that compilation succeeded without a single error or warning, Kiln's or the compiler's
   * (with {@code -Xlint:all}), on the model sources and the generated ones.
   *
   * @return this compilation, for further checks
   * @throws AssertionError otherwise, listing the diagnostics
   */
  public Compilation assertClean() {
    if (!succeeded || !errors().isEmpty() || !warnings().isEmpty()) {
      throw new AssertionError("expected a clean compilation" + report());
    }
    return this;
  }

  /**
   * Asserts that compilation failed with exactly one error, Kiln's diagnostic {@code id}, on {@code
   * line} of a model source: one mistake gives one error.
   *
   * @param id the diagnostic id, {@code ShapeMismatch} for {@code [kiln:ShapeMismatch]}
   * @param line the line the error must point at, counted from 1
   * @return the error, for checks on its message
   * @throws AssertionError otherwise, listing the diagnostics
   */
  public KilnDiagnostic assertFails(String id, long line) {
    List<KilnDiagnostic> errors = errors();
    if (succeeded || errors.size() != 1) {
      throw new AssertionError(
          "expected exactly one error, [kiln:"
              + id
              + "] on line "
              + line
              + ", got "
              + errors.size()
              + report());
    }
    return check(errors.get(0), id, line);
  }

  /**
   * Asserts that compilation succeeded and gave exactly one warning, Kiln's diagnostic {@code id}
   * (e.g. {@code UnusedNode}), on {@code line}.
   *
   * @param id the diagnostic id
   * @param line the line the warning must point at, counted from 1
   * @return the warning
   * @throws AssertionError otherwise, listing the diagnostics
   */
  public KilnDiagnostic assertWarns(String id, long line) {
    List<KilnDiagnostic> warnings = warnings();
    if (!succeeded || warnings.size() != 1) {
      throw new AssertionError(
          "expected success with exactly one warning, [kiln:"
              + id
              + "] on line "
              + line
              + report());
    }
    return check(warnings.get(0), id, line);
  }

  private KilnDiagnostic check(KilnDiagnostic d, String id, long line) {
    if (!id.equals(d.id()) || d.line() != line) {
      throw new AssertionError(
          "expected [kiln:"
              + id
              + "] on line "
              + line
              + ", got "
              + (d.id() == null ? "a diagnostic that is not Kiln's" : "[kiln:" + d.id() + "]")
              + " on line "
              + d.line()
              + report());
    }
    return d;
  }

  private String report() {
    if (diagnostics.isEmpty()) {
      return "; the compiler reported nothing";
    }
    return diagnostics.stream()
        .map(KilnDiagnostic::toString)
        .collect(Collectors.joining("\n  ", ":\n  ", ""));
  }

  /**
   * Returns a one-line summary.
   *
   * @return whether it succeeded and how many errors and warnings it gave
   */
  @Override
  public String toString() {
    return "Compilation["
        + (succeeded ? "succeeded" : "failed")
        + ", "
        + errors().size()
        + " errors, "
        + warnings().size()
        + " warnings, models "
        + models.keySet()
        + "]";
  }
}
