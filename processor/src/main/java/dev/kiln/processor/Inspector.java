package dev.kiln.processor;

import dev.kiln.processor.check.ModelChecker;
import dev.kiln.processor.diag.Report;
import dev.kiln.processor.model.CheckedModel;
import dev.kiln.processor.model.ModelSpec;
import dev.kiln.processor.read.DeclaredModel;
import dev.kiln.processor.read.SymbolSource;
import dev.kiln.processor.write.InterfaceWriter;
import dev.kiln.processor.write.LayerTable;
import java.util.List;
import javax.tools.Diagnostic;

/**
 * The processor's checks of an imported symbol file, run outside a compiler: what {@code
 * kiln-sample inspect} prints (the layer table, or the errors) and the interface {@code kiln-sample
 * import} writes. The file is read and checked exactly as an {@code @Imported} node of that
 * interface is when it compiles.
 */
public final class Inspector {
  private Inspector() {}

  /**
   * What the checks found.
   *
   * @param errors the errors, as the compiler would print them; empty when the model is clean
   * @param warnings the warnings
   * @param table the layer table, when there is no error
   * @param source the interface's source, when there is no error
   * @param classifier whether the model is a classifier (its head is a softmax over classes)
   */
  public record Inspection(
      List<String> errors, List<String> warnings, String table, String source, boolean classifier) {
    /** Copies the lists. */
    public Inspection {
      errors = List.copyOf(errors);
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * Checks the model {@code type} of package {@code pkg} that imports {@code symbolText} (named
   * {@code symbol} beside the interface) with {@code inputs}, cut at {@code outputs} (none: the
   * file's one output).
   */
  public static Inspection inspect(
      String type,
      String pkg,
      String symbol,
      String symbolText,
      List<DeclaredModel.Input> inputs,
      List<String> outputs) {
    Report report = new Report();
    SymbolSource files = (name, p) -> symbolText;
    List<DeclaredModel.Import> imports = DeclaredModel.imports(symbolText, outputs);
    ModelSpec spec = DeclaredModel.read(type, pkg, symbol, files, inputs, imports, report);
    CheckedModel checked =
        spec == null || report.hasErrors() ? null : new ModelChecker(report).check(spec);
    List<String> errors = report.texts(Diagnostic.Kind.ERROR);
    List<String> warnings = report.texts(Diagnostic.Kind.WARNING);
    if (checked == null || !errors.isEmpty()) {
      return new Inspection(errors, warnings, null, null, false);
    }
    return new Inspection(
        errors,
        warnings,
        type + "\n" + LayerTable.render(checked),
        InterfaceWriter.write(
            checked, symbol, imports.stream().anyMatch(i -> !i.output().isEmpty())),
        checked.classifierHead() != null);
  }
}
